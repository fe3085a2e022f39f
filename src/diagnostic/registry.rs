//! The code registry: every diagnostic gateway-migrate can emit, in one table.
//!
//! Each entry has a stable identifier (`family/name`), a severity, a one-line summary and an
//! explanation. The table is the single source of truth: `gateway-migrate codes` lists it,
//! `gateway-migrate explain CODE` prints one entry and `docs/codes.md` is generated from it
//! (a test fails when the checked-in file differs). Code is compared as [`Code`] values,
//! never as strings.

use serde::{Serialize, Serializer};

use super::Severity;

/// What the registry says about one code.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    /// Stable identifier, `family/name` (`istio/retries`).
    pub id: &'static str,
    /// The severity every diagnostic with this code has (`--strict` raises the few codes
    /// [`Code::escalated_by_strict`] names to errors).
    pub severity: Severity,
    /// One line: what happened.
    pub summary: &'static str,
    /// What it means for traffic and what to do about it.
    pub explanation: &'static str,
}

macro_rules! registry {
    ($( $variant:ident = $id:literal, $severity:ident, $summary:literal, $explanation:literal; )*) => {
        /// A diagnostic code. The variants are the registry, in documentation order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( #[doc = $summary] $variant, )*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The registry entry of this code.
            pub const fn entry(self) -> &'static Entry {
                match self {
                    $( Code::$variant => &Entry {
                        id: $id,
                        severity: Severity::$severity,
                        summary: $summary,
                        explanation: $explanation,
                    }, )*
                }
            }
        }
    };
}

impl Code {
    /// The stable identifier (`istio/retries`).
    pub const fn id(self) -> &'static str {
        self.entry().id
    }

    /// The severity diagnostics with this code have.
    pub const fn severity(self) -> Severity {
        self.entry().severity
    }

    /// Codes about objects outside the repository: warnings by default, errors with
    /// `--strict` (which promises the repository is complete).
    pub const fn escalated_by_strict(self) -> bool {
        matches!(
            self,
            Code::AttachParentUnknown | Code::AttachBackendUnknown | Code::AttachCertificateUnknown
        )
    }

    /// The family: the part of the identifier before the slash (`istio`).
    pub fn family(self) -> &'static str {
        self.id().split_once('/').map_or(self.id(), |(f, _)| f)
    }

    /// Looks a code up by its identifier (for `explain` and for reading fixtures; never
    /// for deciding behaviour).
    pub fn parse(id: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.id() == id)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

registry! {
    // ── Loading ──
    LoadParseBudget = "load/parse-budget", Warning,
        "A document past the parser's per-file or per-run budget is not read.",
        "Parsing has budgets per run, so that no input can exhaust memory: documents whose YAML aliases expand past 200,000 nodes in one file or 1,000,000 in the run, 3,000,000 parsed nodes and 256 MiB of parsed documents in the run. A document past one is not read (it is not translated and nothing refers to it); once a budget is spent, the documents it covers are not parsed at all. Anchors in manifests expand to a few hundred nodes, so an expansion budget is hit by an alias bomb or a file to split; the nodes and bytes budgets by a repository far larger than any real one (scan it in parts with `--include`). A single document over 100,000 nodes or replaying more than 50,000 alias events is `load/invalid-yaml`.";
    LoadInvalidJson = "load/invalid-json", Error,
        "A `.json` file that looks like a manifest (it has a `kind`) is not valid JSON.",
        "A `.json` file that looks like a manifest (it has a `kind`) is not valid JSON.";
    LoadInvalidObject = "load/invalid-object", Error,
        "A document has the `apiVersion`/`kind` of an object the tool reads, but its fields have the wrong shape (e.g. `servers` is not a list).",
        "A document has the `apiVersion`/`kind` of an object the tool reads, but its fields have the wrong shape (e.g. `servers` is not a list), or the Istio or Ingress object has a name or namespace the API server would refuse (an unexpanded `${VAR}` placeholder); the message names the field. The object is not translated.";
    LoadPartialDocument = "load/partial-document", Info,
        "A document of a kind the tool translates has no `metadata.name`: a patch or a template, not an object; it is not translated.",
        "kubectl, kustomize (`missing metadata.name`), Argo CD and Flux all refuse a document without a name, so an Ingress, VirtualService, Gateway or DestinationRule without one is never applied as it is: it is a patch (a kustomization may name it; kept as a kustomize patch, `plan/kustomize-patch`) or a template a user copies (a `patches/` file a README or comment points to). It is not translated and is no error; if something patches a translated object with it, port the patch to the generated object by hand.";
    LoadTemplateSkipped = "load/template-skipped", Info,
        "A document is a template skeleton (`{% … %}`, `{{ … }}`, or a name that is a template), not a manifest until a template engine renders it: skipped.",
        "An Istio or Ingress object whose name or namespace is written in a substitution syntax (`${{ values.name }}`, `${NAME}`, `$(NAME)`) is one only once substituted, and is skipped with this note. A document that does not parse as YAML but is written in a template syntax (Jinja or Nunjucks block tags `{% … %}` as in Backstage software templates; `{{ … }}` expressions as in Helm templates outside a chart or Backstage's `${{ values.x }}`) is a skeleton that a template engine renders into manifests elsewhere. It is skipped with this note instead of an invalid-YAML error; translate the rendered manifests (or the repository they are rendered into).";
    LoadInvalidUtf8 = "load/invalid-utf8", Error,
        "A document is not valid UTF-8.",
        "A document is not valid UTF-8; it is skipped. The line is the first one holding an invalid byte.";
    LoadInvalidYaml = "load/invalid-yaml", Error,
        "A document is not valid YAML (or exceeds the parser's nesting, alias or size budgets).",
        "A document is not valid YAML (or exceeds the parser's nesting, alias or size budgets); it is skipped, the rest of the file is read. The diagnostic names the line and column.";
    LoadUnknownApiVersion = "load/unknown-api-version", Warning,
        "An object of an API group the tool reads, in a version it does not know, is not read.",
        "An object of an API group the tool reads (`networking.istio.io`, `security.istio.io`, `networking.k8s.io` Ingresses and IngressClasses, `extensions` Ingresses, the Gateway API groups), in a version it does not know (`networking.istio.io/v9`, `networking.istio.io/V1`: versions are case-sensitive), is not read, so it is not translated and nothing refers to it. Fix the `apiVersion`, or tell us which version a cluster serves.";
    // ── Walking the repository (skipped paths) ──
    WalkBinary = "walk/binary", Info,
        "A file that looks binary (it has a NUL byte) is not read.",
        "A file that looks binary (it has a NUL byte) is not read.";
    WalkEncoding = "walk/encoding", Warning,
        "A UTF-16 or UTF-32 file is not read; its objects are not translated.",
        "A file in UTF-16 or UTF-32 (by its byte order mark, or the zero bytes of its first character) is not read: this tool reads UTF-8 only, while kubectl reads these too, so the objects in it would be deployed and not translated. Convert it: `iconv -f UTF-16 -t UTF-8`.";
    WalkHelmChart = "walk/helm-chart", Info,
        "A directory with a `Chart.yaml` is a Helm chart.",
        "A directory with a `Chart.yaml` is a Helm chart; its templates are not manifests. Render it with `helm template` and scan the output.";
    WalkSymlink = "walk/symlink", Info,
        "A symbolic link is never followed, so nothing outside the repository is read.",
        "A symbolic link is never followed, so nothing outside the repository is read.";
    WalkTooLarge = "walk/too-large", Warning,
        "A file larger than `maxFileSize` (10 MiB by default) is not read; objects in it are not migrated.",
        "A file larger than `maxFileSize` (10 MiB by default, `--max-file-size` raises it) is not read, so Istio or Ingress objects in it, which kustomize or kubectl would still deploy, are not migrated (a warning, so that `check --fail-on warning` does not pass over it). Raise the limit with the flag, or split the file.";
    WalkUnreadable = "walk/unreadable", Info,
        "A file or directory that cannot be read (permissions, a broken entry) is skipped.",
        "A file or directory that cannot be read (permissions, a broken entry) is skipped.";
    // ── Istio translation ──
    IstioAmbiguousHost = "istio/ambiguous-host", Warning,
        "A destination host of the form `name.ns` / `name.ns.svc` (Istio matches it literally) was resolved to the Service of that name that exists in the repository.",
        "A destination host of the form `name.ns` / `name.ns.svc` (Istio matches it literally) was resolved to the Service of that name that exists in the repository.";
    IstioAuthorityMatch = "istio/authority-match", Info,
        "`match.authority.exact` becomes a separate HTTPRoute whose only hostname is that authority.",
        "`match.authority.exact` becomes a separate HTTPRoute whose only hostname is that authority.";
    IstioAuthorityMatchDropped = "istio/authority-match-dropped", Warning,
        "An authority prefix/regex match (or an authority that is not a valid hostname) has no portable Gateway API equivalent.",
        "An authority prefix/regex match (or an authority that is not a valid hostname) has no portable Gateway API equivalent; it is dropped, so the rule matches more requests.";
    IstioAuthorityOutsideHosts = "istio/authority-outside-hosts", Warning,
        "An `authority` match names a host the VirtualService does not serve: dead in Istio, not translated.",
        "Istio chooses the virtual host by the request's Host before any match, and builds a VirtualService's routes only into the virtual hosts of its `hosts`; an authority that is none of them can never be the request's. The matches are dead configuration and are not translated: a route for that host would make them live.";
    IstioAuthorityPort = "istio/authority-port", Info,
        "The port of an `authority.exact` becomes the route's binding to the listeners on that port.",
        "Envoy's `:authority` carries a non-default port, so `shop.example.com:8080` matches only requests sent to port 8080. Gateway API hostnames have no port: the route binds to the listeners on that port instead (a port that contradicts the match's `port` drops the match: Istio never matched it).";
    IstioAutoPassthrough = "istio/auto-passthrough", Info,
        "`AUTO_PASSTHROUGH` becomes a Passthrough TLS listener plus the Istio-only option `gateway.istio.io/listener-protocol: auto-passthrough` (target Istio).",
        "`AUTO_PASSTHROUGH` becomes a Passthrough TLS listener plus the Istio-only option `gateway.istio.io/listener-protocol: auto-passthrough` (target Istio).";
    IstioAutoPassthroughAsPassthrough = "istio/auto-passthrough-as-passthrough", Warning,
        "`AUTO_PASSTHROUGH` (SNI routing to mesh services without a route) has no portable equivalent.",
        "`AUTO_PASSTHROUGH` (SNI routing to mesh services without a route) has no portable equivalent; it becomes a `Passthrough` TLS listener, which needs TLSRoutes.";
    IstioBackendCaConfigmap = "istio/backend-ca-configmap", Warning,
        "DestinationRule `credentialName` (a Secret holding the CA) becomes a BackendTLSPolicy `caCertificateRefs` to a ConfigMap of the same name, which must be created with key `ca.crt`.",
        "DestinationRule `credentialName` (a Secret holding the CA) becomes a BackendTLSPolicy `caCertificateRefs` to a ConfigMap of the same name, which must be created with key `ca.crt`.";
    IstioBackendCaUnknown = "istio/backend-ca-unknown", Error,
        "The backend CA is only a file path, so no BackendTLSPolicy can be written until the CA is provided as a ConfigMap.",
        "The backend CA is only a file path, so no BackendTLSPolicy can be written until the CA is provided as a ConfigMap.";
    IstioBackendClientCertificate = "istio/backend-client-certificate", Warning,
        "DestinationRule `MUTUAL`: the client certificate is not translated (Gateway API has one backend client certificate per Gateway, which Istio does not implement).",
        "DestinationRule `MUTUAL`: the client certificate is not translated (Gateway API has one backend client certificate per Gateway, which Istio does not implement); only server verification is written.";
    IstioBackendPortUnknown = "istio/backend-port-unknown", Error,
        "A destination without a usable port: none given and none from a single-port Service in the repository, or a number outside 1-65535.",
        "A destination without port whose port cannot be taken from a single-port Service in the repository, or whose port number is outside 1-65535; Gateway API requires a valid port, so the backend is dropped.";
    IstioBackendTlsNamespace = "istio/backend-tls-namespace", Info,
        "The BackendTLSPolicy is written to the Service's namespace (policies target local objects), which differs from the DestinationRule's.",
        "The BackendTLSPolicy is written to the Service's namespace (policies target local objects), which differs from the DestinationRule's.";
    IstioBackendTlsSanLimit = "istio/backend-tls-san-limit", Error,
        "More than 5 `subjectAltNames`.",
        "More than 5 `subjectAltNames`; BackendTLSPolicy allows 5.";
    IstioBackendTlsSni = "istio/backend-tls-sni", Warning,
        "DestinationRule tls without `sni`: BackendTLSPolicy needs a fixed `hostname`, the Service FQDN was written.",
        "DestinationRule tls without `sni`: BackendTLSPolicy needs a fixed `hostname`, the Service FQDN was written.";
    IstioCaCertCredentialName = "istio/ca-cert-credential-name", Warning,
        "Server `caCertCredentialName` is not translated.",
        "Server `caCertCredentialName` is not translated; with the Istio MUTUAL option the CA comes from the certificate Secret's `ca.crt`.";
    IstioCaCrl = "istio/ca-crl", Warning,
        "DestinationRule `caCrl` has no Gateway API equivalent.",
        "DestinationRule `caCrl` has no Gateway API equivalent; revocation is not checked.";
    IstioCipherSuites = "istio/cipher-suites", Info,
        "Server `cipherSuites` becomes the Istio-only listener option `gateway.istio.io/tls-cipher-suites` (target Istio).",
        "Server `cipherSuites` becomes the Istio-only listener option `gateway.istio.io/tls-cipher-suites` (target Istio).";
    IstioCipherSuitesDropped = "istio/cipher-suites-dropped", Warning,
        "Server `cipherSuites` has no portable Gateway API equivalent (only the Istio target has a listener option).",
        "Server `cipherSuites` has no portable Gateway API equivalent (only the Istio target has a listener option); not translated.";
    IstioClientCertificateCheck = "istio/client-certificate-check", Warning,
        "Server `subjectAltNames`, `verifyCertificateSpki`, `verifyCertificateHash` or `caCrl` (client certificate checks) have no Gateway API equivalent.",
        "Server `subjectAltNames`, `verifyCertificateSpki`, `verifyCertificateHash` or `caCrl` (client certificate checks) have no Gateway API equivalent.";
    IstioClientCertificateMode = "istio/client-certificate-mode", Info,
        "Server `MUTUAL`/`OPTIONAL_MUTUAL`/`ISTIO_MUTUAL` becomes Terminate with the Istio-only option `gateway.istio.io/tls-terminate-mode` (target Istio).",
        "Server `MUTUAL`/`OPTIONAL_MUTUAL`/`ISTIO_MUTUAL` becomes Terminate with the Istio-only option `gateway.istio.io/tls-terminate-mode` (target Istio); Gateway API validates client certificates per port, not per listener.";
    IstioClientCertificateModeUnsupported = "istio/client-certificate-mode-unsupported", Error,
        "Server `MUTUAL`/`OPTIONAL_MUTUAL`/`ISTIO_MUTUAL` cannot be translated for this target, or has no CA to validate client certificates with.",
        "Server `MUTUAL`/`OPTIONAL_MUTUAL`/`ISTIO_MUTUAL` cannot be translated for this target, or has no CA to validate client certificates with; configure Gateway `spec.tls.frontend` (per port) by hand.";
    IstioCorsLimit = "istio/cors-limit", Error,
        "More than 64 CORS allow/expose headers.",
        "More than 64 CORS allow/expose headers; the rest were dropped.";
    IstioCorsMaxAgeDefault = "istio/cors-max-age-default", Info,
        "`maxAge` unset: Istio sends no `Access-Control-Max-Age`, Gateway API implementations send 5 seconds.",
        "`maxAge` unset: Istio sends no `Access-Control-Max-Age`, Gateway API implementations send 5 seconds.";
    IstioCorsMethod = "istio/cors-method", Warning,
        "A CORS method outside Gateway API's enum was dropped.",
        "A CORS method outside Gateway API's enum was dropped.";
    IstioCorsNoOrigins = "istio/cors-no-origins", Warning,
        "No CORS origin could be translated, so the CORS filter is omitted.",
        "No CORS origin could be translated, so the CORS filter is omitted.";
    IstioCorsOrigin = "istio/cors-origin", Info,
        "A CORS origin was rewritten: a regex `scheme://.*\\.domain` becomes `scheme://*.domain`, and `*` among other origins becomes `*` alone.",
        "A CORS origin was rewritten: a regex `scheme://.*\\.domain` becomes `scheme://*.domain`, and `*` among other origins becomes `*` alone.";
    IstioCorsOriginDropped = "istio/cors-origin-dropped", Warning,
        "A CORS origin that is not an exact origin or a `scheme://*.domain` wildcard (prefix, other regex, invalid origin) is dropped.",
        "A CORS origin that is not an exact origin or a `scheme://*.domain` wildcard (prefix, other regex, invalid origin) is dropped; requests from it lose CORS.";
    IstioCorsPreflight = "istio/cors-preflight", Info,
        "`unmatchedPreflights` is FORWARD (default): Istio forwards non-matching preflights to the backend, Gateway API CORS answers them at the gateway.",
        "`unmatchedPreflights` is FORWARD (default): Istio forwards non-matching preflights to the backend, Gateway API CORS answers them at the gateway.";
    IstioCredentialName = "istio/credential-name", Info,
        "Server `credentialName` becomes a `certificateRefs` entry to the Secret in the gateway proxy's namespace; the note says which evidence chose it.",
        "Server `credentialName` becomes a `certificateRefs` entry to the Secret in the namespace Istio reads it from, the gateway proxy's, with a ReferenceGrant when that is not the Gateway's namespace. The namespace is `istioGatewayNamespace` when set; else the namespace of the workload the Gateway's selector picks, or of its Service, found in the repository; else the one namespace holding the Secret or a cert-manager Certificate writing it; else `istio-system`. The note names the evidence.";
    IstioDelegateFlattened = "istio/delegate-flattened", Info,
        "A delegate VirtualService's rules were inlined into the root (Gateway API has no delegation).",
        "A delegate VirtualService's rules were inlined into the root (Gateway API has no delegation); the delegate itself generates nothing.";
    IstioAfterCatchAll = "istio/after-catch-all", Info,
        "An http entry after a catch-all entry: Istio never applied it, so it is not translated.",
        "Istio builds a VirtualService's `http[]` entries in order and stops at the first catch-all: an entry without `match`, or a match that becomes a `prefix /` route with no header or query condition, such as `match: [{name: x}]` or `uri: {prefix: /}` (`pilot/pkg/networking/core/route/route.go` `BuildHTTPRoutesForVirtualService`, `IsCatchAllRoute`). The entries after it never applied. In Gateway API they would: a more specific path wins over the catch-all whatever the rule order. They are not translated. If they were meant to serve, move them before the catch-all in the VirtualService first.";
    IstioDelegateConflict = "istio/delegate-conflict", Info,
        "A delegate entry whose match does not fit under the root entry's matches: Istio drops it, so it is not translated.",
        "Istio merges a delegate's entries into the root entry that names it (`pilot/pkg/model/virtualservice.go` `mergeHTTPRoute`, `mergeHTTPMatchRequests`). Each match of a delegate entry must be narrower than one of the root's (`hasConflict`): a path prefix starting with the root's prefix, the same exact path, no regex on either side, the same case sensitivity, no header, query, method, port or source condition that contradicts the root's. If any match of the entry fits none, Istio drops the whole entry, so requests it names go on to the delegate's later entries or get 404. The translation drops it too. To serve those requests, narrow the delegate's match (for example `prefix: /api/v1` under a root `prefix: /api`).";
    IstioDelegateSkipped = "istio/delegate-skipped", Info,
        "A root entry whose delegate has hosts or is not exported to the root's namespace: Istio skips the entry, so it is dropped.",
        "Istio looks a `delegate` up among VirtualServices without `hosts` and checks the delegate's `exportTo` against the root's namespace (`pilot/pkg/model/virtualservice_controller.go` `mergeVirtualServices`). A named VirtualService that has hosts is a root, not a delegate; one whose `exportTo` leaves out the root's namespace is invisible to it. Either way Istio skips the root's entry and requests go on to the next entries. The translation drops the entry as well. To serve it, remove `hosts` from the delegate, or add the root's namespace to its `exportTo`.";
    IstioDelegateNested = "istio/delegate-nested", Error,
        "A delegate Istio's admission refuses (it delegates again, or has gateways, TLS or TCP routes); the root's entry is dropped.",
        "Istio's validating webhook refuses a delegate VirtualService (one without hosts) that delegates again or lists gateways, TLS or TCP routes (`pkg/config/validation/validation.go` `ValidateVirtualService`, `virtualservice.go` `validateHTTPRoute`), so it is never stored, and Istio drops the root entry that names it (`mergeVirtualServices`). The root entry is dropped, none of the delegate's rules are inlined; fix the delegate if its routes were meant to be served.";
    IstioDelegateNotFound = "istio/delegate-not-found", Error,
        "The delegate VirtualService is not in the repository.",
        "The delegate VirtualService is not in the repository; the entry is translated without it.";
    IstioDestinationHostMissing = "istio/destination-host-missing", Error,
        "A route, mirror or L4 destination without host.",
        "A route, mirror or L4 destination without host; dropped.";
    IstioDestinationRuleHost = "istio/destination-rule-host", Warning,
        "The DestinationRule host is not a Kubernetes Service, so no BackendTLSPolicy can target it.",
        "The DestinationRule host is not a Kubernetes Service, so no BackendTLSPolicy can target it.";
    IstioDestinationRuleHostMissing = "istio/destination-rule-host-missing", Error,
        "DestinationRule without `host`.",
        "DestinationRule without `host`; nothing translated.";
    IstioDestinationRuleTlsDuplicate = "istio/destination-rule-tls-duplicate", Info,
        "On Istio the DestinationRule's tls keeps applying to Gateway API traffic: remove it once the BackendTLSPolicy is applied.",
        "On Istio the DestinationRule's tls keeps applying to Gateway API traffic: remove it once the BackendTLSPolicy is applied.";
    IstioDestinationRuleTlsMode = "istio/destination-rule-tls-mode", Error,
        "Unknown DestinationRule TLS mode.",
        "Unknown DestinationRule TLS mode; not translated.";
    IstioDirectResponse = "istio/direct-response", Warning,
        "`directResponse` with a 5xx status becomes a rule without backends, which Gateway API implementations answer with 500 (status and body are not kept).",
        "`directResponse` with a 5xx status becomes a rule without backends, which Gateway API implementations answer with 500 (status and body are not kept).";
    IstioDirectResponseSame = "istio/direct-response-500", Info,
        "`directResponse` 500 without a body becomes a rule without backends, which Gateway API answers with 500 as well.",
        "Istio answers a `directResponse` itself (`pilot/pkg/networking/core/route/route.go` `ApplyDirectResponse`). Gateway API has no such action, but a rule without backends is answered with 500 (HTTPRoute `backendRefs` documentation), so a 500 without a body keeps its status. The implementation may add its own short body. Nothing to do.";
    IstioDirectResponseDropped = "istio/direct-response-dropped", Error,
        "`directResponse` with a status below 400 has no Gateway API equivalent.",
        "`directResponse` with a status below 400 (a 200 health answer, a 3xx) has no Gateway API equivalent; the rule is dropped, so matching requests fall through to other rules. (4xx and 5xx are kept as rules that refuse: `istio/direct-response-fail-closed`, `istio/direct-response`.)";
    IstioDirectResponseFailClosed = "istio/direct-response-fail-closed", Warning,
        "A 4xx `directResponse` becomes a rule without backends: still refused, with 500 instead of the status.",
        "A 4xx `directResponse` (403 on `/admin`) cannot be answered as such in Gateway API; dropping the rule would let the path fall through to the catch-all backend (fail open). The rule is kept without backends, for which Gateway API answers 500: the request is still refused, with another status and without the body.";
    IstioDuplicateObject = "istio/duplicate-object", Error,
        "A second Istio Gateway with the same namespace/name.",
        "A second Istio Gateway with the same namespace/name; only the first is translated.";
    IstioEgressGateway = "istio/egress-gateway", Warning,
        "An egress gateway is not migrated.",
        "An Istio egress gateway (selector `istio: egressgateway`, or a Gateway through which mesh traffic for a MESH_EXTERNAL ServiceEntry host is sent) has no Gateway API equivalent in the standard channel; a Gateway made from it would be a new internet-facing load balancer. It is not migrated: no Gateway, no parentRef to it, no ReferenceGrant; keep it and its VirtualServices on Istio.";
    IstioEmptyHeaderValue = "istio/empty-header-value", Warning,
        "A header modifier with an empty value (Gateway API requires a value).",
        "A header modifier with an empty value (Gateway API requires a value); dropped.";
    IstioExportTo = "istio/export-to", Info,
        "`exportTo` has no Gateway API equivalent.",
        "`exportTo` has no Gateway API equivalent; it only decides which Gateways get a parentRef.";
    IstioExportToHidden = "istio/export-to-hidden", Warning,
        "`exportTo` hides the VirtualService from the Gateway's namespace, so Istio does not apply it there.",
        "`exportTo` hides the VirtualService from the Gateway's namespace, so Istio does not apply it there; no parentRef is generated.";
    IstioExternalHost = "istio/external-host", Info,
        "A destination host that is not a Kubernetes Service of the cluster is referenced with the Istio-only backend kind `networking.istio.io/Hostname` (target Istio).",
        "A destination host that is not a Kubernetes Service of the cluster is referenced with the Istio-only backend kind `networking.istio.io/Hostname` (target Istio); it must be a ServiceEntry host.";
    IstioExternalHostDropped = "istio/external-host-dropped", Error,
        "A destination host that is not a Kubernetes Service (ServiceEntry or external name) has no portable backend.",
        "A destination host that is not a Kubernetes Service (ServiceEntry or external name) has no portable backend; dropped (the Istio target uses the `networking.istio.io/Hostname` backend kind instead, see `istio/external-host`).";
    IstioFaultAbortAll = "istio/fault-abort-all", Info,
        "A fault aborting every request with 500 becomes a rule without backends, which Gateway API answers with 500 as well.",
        "Istio's fault filter answers before routing (`pilot/pkg/networking/core/route/route.go` `TranslateFault`); an abort of 100 % of the requests with `httpStatus: 500` refuses every request the entry matches. Gateway API has no fault injection, but a rule without backends is answered with 500, so the translation keeps the rule without backends or filters: the same answer. Nothing to do.";
    IstioFaultAbortFailClosed = "istio/fault-abort-fail-closed", Warning,
        "A fault aborting every request becomes a rule without backends: still refused, with 500 instead of the abort's status.",
        "Istio's fault filter answers before routing (`pilot/pkg/networking/core/route/route.go` `TranslateFault`); an abort of 100 % of the requests refuses every request the entry matches, with its `httpStatus` or `grpcStatus`. Gateway API has no fault injection. Turning the entry into a route to its destination would open what was closed, so the rule is kept without backends or filters: Gateway API answers 500. Clients that look at the status see 500 instead of the abort's. If the status matters, configure the target implementation's own direct response (Envoy Gateway `HTTPRouteFilter` `directResponse`, for example).";
    IstioFaultNoEffect = "istio/fault-no-effect", Info,
        "A fault that touches no request in Istio (no percentage, 0 %, or a kind Istio does not build): nothing to translate.",
        "Istio applies a fault abort or delay only to the `percentage` of requests it names; without `percentage`, or at 0 %, no request is aborted or delayed (istio/api `HTTPFaultInjection`; `pilot/pkg/networking/core/route/route.go` `TranslateFault` leaves Envoy's share at zero). An abort without `httpStatus` or `grpcStatus` and an `exponentialDelay` are not built at all. Such a fault changed nothing, so leaving it out changes nothing.";
    IstioFaultInjection = "istio/fault-injection", Error,
        "A `fault` that delays requests or aborts part of them has no Gateway API equivalent.",
        "Istio delays or aborts the `percentage` of requests a `fault` names (`pilot/pkg/networking/core/route/route.go` `TranslateFault`). Gateway API has no fault injection, so a delay, or an abort of part of the requests, is dropped: those requests are now served without delay or error. (An abort of every request is kept as a refusal, `istio/fault-abort-fail-closed`; a fault that touches no request is `istio/fault-no-effect`.) Fault injection is a test tool: run the test against the implementation's own fault filter, or keep that route on Istio until the test is over.";
    IstioFileMountedCertificate = "istio/file-mounted-certificate", Error,
        "A certificate, key or CA given as a file path mounted into the proxy (served by istio-agent over SDS).",
        "A certificate, key or CA given as a file path mounted into the proxy (served by istio-agent over SDS); Gateway API only references Secrets and ConfigMaps, so nothing usable was written: create a Secret/ConfigMap from the files.";
    IstioFileMountedCertificateIgnored = "istio/file-mounted-certificate-ignored", Warning,
        "A certificate, key or CA given as a file path mounted into the gateway pod, next to a `credentialName` Secret that was translated: the file is ignored (Gateway API only references Secrets).",
        "A certificate, key or CA given as a file path mounted into the gateway pod, next to a `credentialName` Secret that was translated: the file is ignored (Gateway API only references Secrets).";
    IstioFlaggerCanary = "istio/flagger-canary", Warning,
        "A Flagger Canary writes its VirtualService at runtime: move it to Flagger's Gateway API provider.",
        "A Flagger `Canary` with Istio `service.gateways`: Flagger writes the VirtualService at runtime, so the repository has nothing to translate for it and a migrated Gateway gets no route for the canary. Move the Canary to Flagger's Gateway API provider (`spec.provider: gatewayapi:v1`, `spec.service.gatewayRefs`) in the same change.";
    IstioFrontendValidation = "istio/frontend-validation", Info,
        "Server `MUTUAL` for a non-Istio target becomes Gateway `spec.tls.frontend.perPort` validation against a ConfigMap (`caCertCredentialName`, else `<credentialName>-cacert`) with key `ca.crt`, which must be created from the CA Istio reads.",
        "Server `MUTUAL` for a non-Istio target becomes Gateway `spec.tls.frontend.perPort` validation against a ConfigMap (`caCertCredentialName`, else `<credentialName>-cacert`) with key `ca.crt`, which must be created from the CA Istio reads.";
    IstioFrontendValidationOptional = "istio/frontend-validation-optional", Warning,
        "`OPTIONAL_MUTUAL` becomes frontend validation mode `AllowInsecureFallback`, which also accepts invalid client certificates (Istio rejects them).",
        "`OPTIONAL_MUTUAL` becomes frontend validation mode `AllowInsecureFallback`, which also accepts invalid client certificates (Istio rejects them).";
    IstioFrontendValidationPerPort = "istio/frontend-validation-per-port", Warning,
        "Gateway API validates client certificates per port: SIMPLE servers sharing the port now require client certificates too, and differing validations on one port keep the first.",
        "Gateway API validates client certificates per port: SIMPLE servers sharing the port now require client certificates too, and differing validations on one port keep the first.";
    IstioGatewayNameLength = "istio/gateway-name-length", Warning,
        "Gateway names over 57 characters make Istio's generated `<name>-<class>` Deployment/Service exceed 63 characters.",
        "Gateway names over 57 characters make Istio's generated `<name>-<class>` Deployment/Service exceed 63 characters.";
    IstioGatewayNoListeners = "istio/gateway-no-listeners", Error,
        "No server of the Istio Gateway could be translated, so no Gateway is generated.",
        "No server of the Istio Gateway could be translated, so no Gateway is generated.";
    IstioGatewayNotFound = "istio/gateway-not-found", Warning,
        "The Istio Gateway a VirtualService names is not in the repository: parentRef without sectionName, attachment unchecked.",
        "The Istio Gateway a VirtualService names is not in the repository: parentRef without sectionName, attachment unchecked.";
    IstioGatewaySelector = "istio/gateway-selector", Info,
        "`selector` is not translated: the Gateway gets its own deployment and address, unless `keepLoadBalancer` writes `spec.addresses` naming the existing Istio ingress Service.",
        "`selector` is not translated: the Gateway gets its own deployment and address, unless `keepLoadBalancer` writes `spec.addresses` naming the existing Istio ingress Service.";
    IstioHeaderConflict = "istio/header-conflict", Warning,
        "A header is both set and added (or modified and removed).",
        "A header is both set and added (or modified and removed); Gateway API allows one action per header name.";
    IstioHeaderFormatter = "istio/header-formatter", Warning,
        "A header value looks like an Envoy `%VARIABLE%` formatter, which Gateway API does not define.",
        "A header value looks like an Envoy `%VARIABLE%` formatter, which Gateway API does not define; copied literally.";
    IstioHostHeader = "istio/host-header", Warning,
        "A destination's `Host` header operation is kept as a header entry, which does not rewrite the host.",
        "Istio rewrites the host for a destination whose request header operations set `Host` or `:authority` (route.go `processWeightedDestination`). Gateway API has no per-backend host rewrite: the entry is kept in the backend's header modifier, where implementations refuse or ignore it, so that backend now sees the client's host. Move the authority to the route (`rewrite.authority`, written as URLRewrite `hostname`) if every destination can share it.";
    IstioHostHeaderRewrite = "istio/host-header-rewrite", Info,
        "`Host` or `:authority` set by a route's header operations becomes the URLRewrite hostname.",
        "Istio rewrites the host when a route's request header operations set (or add) `Host` or `:authority` and `rewrite.authority` is unset (route.go `TranslateHeadersOperations`); Gateway API's way to rewrite the host is the URLRewrite filter's `hostname`, which is written instead of a header modifier entry (implementations refuse or ignore `Host` there).";
    IstioHttpsRedirect = "istio/https-redirect", Info,
        "`httpsRedirect` becomes an HTTPRoute with a 301 https RequestRedirect bound by sectionName to the plaintext listeners.",
        "`httpsRedirect` becomes an HTTPRoute with a 301 https RequestRedirect bound by sectionName to the plaintext listeners.";
    IstioHttpsRedirectIgnored = "istio/https-redirect-ignored", Info,
        "`httpsRedirect` on a server that is not plaintext HTTP has no effect.",
        "`httpsRedirect` on a server that is not plaintext HTTP has no effect; ignored.";
    IstioIgnoreUriCase = "istio/ignore-uri-case", Warning,
        "A case-insensitive path match has no portable equivalent.",
        "A case-insensitive path match has no portable equivalent; it is emitted as an RE2 `(?i)` regular expression (implementation-specific).";
    IstioIgnoreUriCaseNoEffect = "istio/ignore-uri-case-no-effect", Info,
        "`ignoreUriCase` without a `uri` match has no effect.",
        "`ignoreUriCase` without a `uri` match has no effect; nothing to translate.";
    IstioInsecureSkipVerify = "istio/insecure-skip-verify", Error,
        "DestinationRule `insecureSkipVerify`: BackendTLSPolicy always verifies the backend certificate, so no policy is generated.",
        "DestinationRule `insecureSkipVerify`: BackendTLSPolicy always verifies the backend certificate, so no policy is generated; keep the DestinationRule (Istio) or provide the CA.";
    IstioInternalGateway = "istio/internal-gateway", Info,
        "A gateway reached only inside the cluster keeps a cluster-internal Service.",
        "The Istio gateway's Services in the repository are ClusterIP: for the `istio` target the Gateway gets the `networking.istio.io/service-type` annotation so Istio creates a ClusterIP Service too, not an internet-facing LoadBalancer.";
    IstioGatewaySourceRanges = "istio/gateway-source-ranges", Error,
        "The gateway's Service admits only some client ranges (`loadBalancerSourceRanges`); the Gateway's new Service admits everyone.",
        "A `LoadBalancer` Service with `loadBalancerSourceRanges` makes the cloud load balancer (or kube-proxy) drop every client outside those ranges: the Istio gateway behind it was reachable only from them. The Gateway API Gateway gets a new Service from its implementation, without the ranges, so after the cut-over every client reaches the routes. Carry the ranges over before cutting over: with Istio, a ConfigMap named by the Gateway's `spec.infrastructure.parametersRef` whose `service` key is a patch of the generated Service (`spec.loadBalancerSourceRanges`); with Envoy Gateway, an EnvoyProxy's `envoyService` patch; or keep the old Service with `keepLoadBalancer`.";
    IstioGatewayTrafficPolicy = "istio/gateway-traffic-policy", Warning,
        "The gateway's Service kept client addresses (`externalTrafficPolicy: Local`); the Gateway's new Service defaults to `Cluster`.",
        "With `externalTrafficPolicy: Local` the gateway pods saw each client's own address, which AuthorizationPolicy `remoteIpBlocks`/`ipBlocks`, rate limits by client and the `X-Forwarded-For` the backends get rely on. The Service an implementation creates for a Gateway uses the default, `Cluster`, where clients appear as node addresses. Set the policy on the new Service (Istio: a ConfigMap in the Gateway's `spec.infrastructure.parametersRef` with a `service` patch; Envoy Gateway: an EnvoyProxy `envoyService` patch) or keep the old Service with `keepLoadBalancer`.";
    IstioMeshDefaultRetries = "istio/mesh-default-retries", Warning,
        "Istio retried every route without its own retries (the mesh default); the target does not.",
        "Istio gives every route that sets no `retries` the mesh's `defaultHttpRetryPolicy`, or its own default of 2 attempts on `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes` (`pilot/pkg/networking/core/route/retry/retry.go`); HTTPRoutes on Istio get the same. Envoy Gateway sets a retry policy only where a BackendTrafficPolicy (or an HTTPRoute `retry`) asks for one (`internal/xds/translator/route.go`), so on that target a backend pod that refuses a connection fails the request instead of being retried. Add a BackendTrafficPolicy `retry` for the Gateway, or accept the change. With the `istio` target nothing is said.";
    IstioMeshPathNormalization = "istio/mesh-path-normalization", Warning,
        "Istio normalized request paths as the mesh's `pathNormalization` says; the target normalizes them differently.",
        "Istio's gateways normalize paths as `meshConfig.pathNormalization` says (`BASE` by default: RFC 3986 normalization, slashes not merged, `%2F` kept; `pilot/pkg/networking/core/listener_builder.go`). Envoy Gateway merges slashes and answers a path with an escaped slash with a redirect to its unescaped form by default (`internal/gatewayapi/listener.go`), unless a ClientTrafficPolicy's path settings say otherwise. A request such as `//admin` or `/a%2Fb` may then match another route than before, which matters where a route or a policy guards a path. Set the ClientTrafficPolicy path settings to match, or confirm no route depends on it. With the `istio` target nothing is said.";
    IstioInternalGatewayManual = "istio/internal-gateway-manual", Warning,
        "The gateway's Service type (ClusterIP, NodePort) needs a hand-made setting or re-pointing.",
        "The Istio gateway's Services in the repository are ClusterIP or NodePort. For targets other than `istio` the tool cannot set the type of the Service the implementation creates; the note says how (Envoy Gateway: an EnvoyProxy resource). A NodePort Service gets new node ports on any target, so whatever sends traffic to the old ones must be re-pointed.";
    IstioInvalidDuration = "istio/invalid-duration", Error,
        "A timeout/duration that is not expressible in Gateway API's duration format.",
        "A timeout/duration that is not expressible in Gateway API's duration format; dropped.";
    IstioInvalidGatewayReference = "istio/invalid-gateway-reference", Error,
        "A `gateways` entry that is not a valid `namespace/name`: no parentRef.",
        "A `gateways` entry (or `match.gateways`) whose namespace is not a DNS label or whose name is not a DNS name: Istio's own validation refuses it, and a parentRef to it would be refused, so none is generated for it.";
    IstioInvalidPort = "istio/invalid-port", Error,
        "A `match.port` or `authority` port outside 1-65535: Istio refuses it, so the match is dropped.",
        "A `match.port` (or the port of an `authority.exact`) outside 1-65535 can match no request, and Istio's validation refuses it; a parentRef or sectionName port with it would be refused too. The match is dropped (and the rule, when it has no other match).";
    IstioInvalidHeaderName = "istio/invalid-header-name", Error,
        "A header name Gateway API does not accept: the match is dropped (fail closed); on a refusal only the condition is.",
        "A header name Gateway API does not accept: dropping only the condition would widen the match to requests without the header, so the whole match is dropped (and the rule, when it has no other match). An entry that refuses (a 4xx/5xx direct response, an abort of every request) fails closed the other way: only the condition is left out, so it refuses more requests, never fewer.";
    IstioInvalidHostname = "istio/invalid-hostname", Error,
        "A host that is not a valid Gateway API hostname (IP, bare `*` on a TLSRoute, invalid label).",
        "A host that is not a valid Gateway API hostname (IP, bare `*` on a TLSRoute, invalid label); dropped.";
    IstioIstioMutual = "istio/istio-mutual", Info,
        "DestinationRule `ISTIO_MUTUAL` (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent.",
        "DestinationRule `ISTIO_MUTUAL` (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent; on Istio, mesh mTLS applies to Gateway API traffic automatically, so nothing is generated.";
    IstioIstioMutualUnsupported = "istio/istio-mutual-unsupported", Warning,
        "DestinationRule `ISTIO_MUTUAL` (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent, and the target implementation is not Istio: backend traffic is no longer mutually authenticated unless the implementation's own mesh integration provides it.",
        "DestinationRule `ISTIO_MUTUAL` (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent, and the target implementation is not Istio: backend traffic is no longer mutually authenticated unless the implementation's own mesh integration provides it.";
    IstioJwtClaimMatch = "istio/jwt-claim-match", Error,
        "A match on JWT claims (`@request.auth.claims.*`) cannot be expressed; the match is dropped (fail closed), or on a refusal the claim condition is.",
        "Istio routes on JWT claims at gateways once a RequestAuthentication validated the token (`@request.auth.claims.<claim>` in `headers`/`withoutHeaders`; `pilot/pkg/networking/core/route/route.go` `translateMetadataMatch`). Gateway API cannot see claims. For a route, dropping only the condition would send every request down this rule, so the whole match is dropped (the rule too, when it has no other match). For an entry that refuses (a 4xx/5xx direct response, an abort of every request), dropping the match would open what it refused, so only the claim condition is left out and it refuses every request its other conditions match. Route on a header your authentication layer sets, or keep this VirtualService.";
    IstioKnativeGateway = "istio/knative-gateway", Warning,
        "A Knative gateway is not migrated: net-istio writes its VirtualServices at runtime.",
        "Knative's Istio ingress (net-istio) owns `knative-serving/knative-ingress-gateway` and `knative-local-gateway` (`cluster-local-gateway` in old releases) and writes their VirtualServices at runtime. A translated Gateway would get no routes; migrate Knative with its net-gateway-api ingress instead.";
    IstioL4MatchField = "istio/l4-match-field", Info,
        "A TLS/TCP match field Istio's gateway never reads (destinationSubnets, sourceLabels, sourceNamespace, sourceSubnet): left out, nothing changes.",
        "Istio matches the TLS and TCP routes of a gateway on `port` and `gateways` only (and `sniHosts` for TLS): `pilot/pkg/networking/core/gateway.go` `l4MultiMatch`, `l4SingleMatch`. `destinationSubnets`, `sourceLabels`, `sourceNamespace` and `sourceSubnet` only take effect in sidecars, whose TLS and TCP routes are not translated (`istio/mesh-l4-route`). Gateway API has no field for them; leaving them out changes nothing at the gateway.";
    IstioL4Ports = "istio/l4-ports", Warning,
        "TLS/TCP matches on several ports: the route binds to every suitable listener.",
        "TLS/TCP matches on several ports: the route binds to every suitable listener.";
    IstioListenerConflict = "istio/listener-conflict", Warning,
        "Two servers serve the same port, protocol and hostname with different TLS settings.",
        "Two servers serve the same port, protocol and hostname with different TLS settings; the first listener is kept.";
    IstioListenerPort = "istio/listener-port", Info,
        "A listener on 8080/8443: the default Istio ingress Service maps 80→8080 and 443→8443, while a Gateway API listener port is the port of the Gateway's own Service.",
        "A listener on 8080/8443: the default Istio ingress Service maps 80→8080 and 443→8443, while a Gateway API listener port is the port of the Gateway's own Service.";
    IstioMatchDropped = "istio/match-dropped", Error,
        "No condition of a match can be expressed.",
        "No condition of a match can be expressed. For a route the match is dropped instead of widening to every request; for an entry that refuses (a 4xx/5xx direct response, an abort of every request) it is widened instead, so it refuses every request rather than none.";
    IstioMatchGatewayNotBound = "istio/match-gateway-not-bound", Warning,
        "A match names only gateways the VirtualService is not bound to: it never applies.",
        "A `tls`/`tcp` match names only gateways that the VirtualService's `gateways` does not list. Istio indexes a VirtualService under its top-level `gateways` only, so the match never applies; it is not translated.";
    IstioMatchGateways = "istio/match-gateways", Info,
        "Per-match `gateways` (which replace the VirtualService's `gateways` for that match) put the match in a sibling route bound to those gateways only.",
        "Per-match `gateways` (which replace the VirtualService's `gateways` for that match) put the match in a sibling route bound to those gateways only.";
    IstioMatchName = "istio/match-name", Info,
        "Match names have no Gateway API equivalent.",
        "Match names have no Gateway API equivalent; dropped.";
    IstioMeshHostNotService = "istio/mesh-host-not-service", Warning,
        "A mesh VirtualService host that is not a Kubernetes Service.",
        "A mesh VirtualService host that is not a Kubernetes Service; GAMMA routes attach to Services only.";
    IstioMeshL4Route = "istio/mesh-l4-route", Warning,
        "Mesh (sidecar) TLS/TCP routing is not translated.",
        "Mesh (sidecar) TLS/TCP routing is not translated; GAMMA covers HTTP and gRPC.";
    IstioMeshRouteNoBackends = "istio/mesh-route-no-backends", Error,
        "A mesh VirtualService lost every destination; no GAMMA route is written.",
        "Every destination of a mesh VirtualService's rules was dropped in translation. A GAMMA route without backends would answer 500 to all mesh traffic for the Service, so none is written; mesh traffic then reaches the Service itself, not the VirtualService's destinations.";
    IstioMeshRouteScope = "istio/mesh-route-scope", Warning,
        "A GAMMA route reaches other clients than the mesh VirtualService did.",
        "Istio applies a mesh VirtualService to the sidecars of the namespaces it is exported to (all by default). A GAMMA route in the Service's namespace (producer route) applies to every client; one in another namespace (consumer route) only to clients in its own namespace. Where the two differ, the scope widens or narrows.";
    IstioMethodMatch = "istio/method-match", Info,
        "A method prefix/regex match is expanded to one match per Gateway API method it selects.",
        "A method prefix/regex match is expanded to one match per Gateway API method it selects.";
    IstioMethodMatchDropped = "istio/method-match-dropped", Error,
        "A method match selects no method Gateway API can match.",
        "A method match selects no method Gateway API can match; the condition is dropped, so the rule matches more requests.";
    IstioNoAction = "istio/no-action", Error,
        "An http entry with no route, redirect, directResponse or delegate.",
        "An http entry with no route, redirect, directResponse or delegate; dropped.";
    IstioNoBackends = "istio/no-backends", Error,
        "No destination of a rule could be translated: HTTP rules without backends answer 500.",
        "No destination of a rule could be translated: HTTP rules without backends answer 500; TLS/TCP routes are not generated.";
    IstioNoHosts = "istio/no-hosts", Error,
        "A VirtualService without hosts that no other VirtualService delegates to.",
        "A VirtualService without hosts that no other VirtualService delegates to; nothing translated.";
    IstioNoListenerMatch = "istio/no-listener-match", Warning,
        "No listener of the named Gateway serves the VirtualService's hosts to its namespace (or on the matched port/scheme).",
        "No listener of the named Gateway serves the VirtualService's hosts to its namespace (or on the matched port/scheme); no parentRef.";
    IstioNoValidHostnames = "istio/no-valid-hostnames", Error,
        "No host of the VirtualService is a valid hostname.",
        "No host of the VirtualService is a valid hostname; an HTTPRoute without hostnames would match every host, so none is generated.";
    IstioNotIngressBinding = "istio/not-ingress-binding", Info,
        "A VirtualService binding to a Gateway that is not migrated (egress, Knative) stays with Istio.",
        "A VirtualService binding to a Gateway that is not migrated (egress, Knative) stays with Istio: no parentRef is generated for it.";
    IstioPassthroughCredential = "istio/passthrough-credential", Warning,
        "`credentialName` on a passthrough server is ignored by Istio and not translated.",
        "`credentialName` on a passthrough server is ignored by Istio and not translated.";
    IstioPathAsRegex = "istio/path-as-regex", Warning,
        "A path Gateway API rejects as Exact/PathPrefix value is emitted as an equivalent RE2 regular expression.",
        "A path Gateway API rejects as Exact/PathPrefix value is emitted as an equivalent RE2 regular expression.";
    IstioPerTryTimeout = "istio/per-try-timeout", Info,
        "`perTryTimeout` longer than the route timeout is dropped (Gateway API rejects backendRequest > request).",
        "`perTryTimeout` longer than the route timeout is dropped (Gateway API rejects backendRequest > request).";
    IstioPolicyPorts = "istio/policy-ports", Warning,
        "A retargeted policy names ports: the new Gateway's pods listen on other ports.",
        "A policy retargeted at the new Gateway names ports in its rules. On the old gateway those are the pod's ports (8080/8443 with Istio's charts); the new Gateway's pods listen on the listener ports. Check them before applying: an ALLOW rule on the wrong port refuses everything, a DENY rule lets everything through.";
    IstioPolicyRetargeted = "istio/policy-retargeted", Info,
        "A policy that selected the gateway workload is rewritten to target the new Gateway.",
        "An AuthorizationPolicy, RequestAuthentication or Telemetry selected the Istio gateway's pods by label; the new Gateway's pods carry none of those labels. For the `istio` target a copy is written in the Gateway's namespace with `targetRefs` naming the Gateway instead of `selector`.";
    IstioPolicyWorkload = "istio/policy-workload", Error,
        "A policy selecting the gateway workload no longer applies to the new Gateway.",
        "An Istio policy (AuthorizationPolicy, RequestAuthentication, PeerAuthentication, EnvoyFilter, WasmPlugin, Telemetry) selects the Istio gateway's pods by label. The new Gateway's pods match none of it, so a deny-all or ext-authz/JWT requirement silently disappears. It cannot be retargeted here (PeerAuthentication, EnvoyFilter, WasmPlugin, or a target other than `istio`): recreate it for the new deployment before switching traffic.";
    IstioPortFromService = "istio/port-from-service", Info,
        "A destination without port took the port of the single-port Service in the repository.",
        "A destination without port took the port of the single-port Service in the repository.";
    IstioPortLevelTls = "istio/port-level-tls", Error,
        "`portLevelSettings[].tls` needs the Service port's name for the BackendTLSPolicy sectionName, and it is not known.",
        "`portLevelSettings[].tls` needs the Service port's name for the BackendTLSPolicy sectionName, and it is not known.";
    IstioPortMatch = "istio/port-match", Info,
        "`match.port` becomes a binding to the listeners on that port (sectionName) or the Service parentRef port.",
        "`match.port` becomes a binding to the listeners on that port (sectionName) or the Service parentRef port.";
    IstioRefusalOvertaken = "istio/refusal-overtaken", Error,
        "An entry that refused requests (a 4xx direct response, an abort of every request) comes first in Istio, but Gateway API ranks a later entry's match above it: requests it refused are now served.",
        "Istio takes the first matching `http[]` entry (`pilot/pkg/networking/core/route/route.go` `BuildHTTPRoutesForVirtualService`), so a refusal listed first (`directResponse` 403 on `/admin`, or a fault aborting every request) wins over every later entry. Gateway API ranks matches by path kind and length before rule order; Istio's implementation ranks every PathPrefix, even `/`, above a RegularExpression. When the refusal's match cannot be carried onto the later entry's match (a case-insensitive or regular-expression path, a path the later one is not under), requests matching both reach the later entry's backends: the translation opens what was closed. Make the refusal's path a plain prefix or exact path, or restate it on the later entry's path (for example a second refusal entry with the longer prefix) before migrating.";
    IstioPrecedenceChanged = "istio/precedence-changed", Warning,
        "Two entries can match the same request: Istio used the earlier one (first match wins), Gateway API picks the later, more specific one.",
        "Two entries can match the same request: Istio used the earlier one (first match wins, `pilot/pkg/networking/core/route/route.go` `BuildHTTPRoutesForVirtualService`), Gateway API picks the later, more specific one (path kind and length, then method, headers, query). Where it can, the translation carries the earlier entry's conditions onto the later entry's path (`istio/first-match-carried`); this warning means it could not: the earlier match has a regular-expression path or a path the later one is not under, a prefix rewrite cannot be restated, two conditions fall on one header, or too many copies would be needed. Requests matching both now reach the later entry. Reorder the VirtualService so the more specific entry comes first if that is what was meant, or split the conditions so the two entries cannot take the same request.";
    IstioFirstMatchCarried = "istio/first-match-carried", Info,
        "A copy of an earlier entry's rule, on the later entry's path with both entries' conditions, keeps Istio's first-match answer where Gateway API would pick the later, more specific entry.",
        "Istio takes the first matching `http[]` entry; Gateway API ranks matches by path kind and length, then method, headers and query, and uses rule order only among equals. When an earlier entry (say `prefix /api` with header `x-canary: true`) and a later, more specific one (`prefix /api/orders`) can take the same request, the translation writes a copy of the earlier entry's rule right before the later one's, matching the later path with the conditions of both (`/api/orders` + `x-canary: true`). The copy ranks at least as high as the later match and comes first among equals, so `GET /api/orders` with `x-canary: true` still reaches the earlier entry's backends, with its filters; a prefix rewrite is restated for the longer path. Nothing to do; the note says which entries were combined.";
    IstioPrefixAsRegex = "istio/prefix-as-regex", Warning,
        "A header/query prefix match has no Core equivalent and is emitted as RegularExpression.",
        "A header/query prefix match has no Core equivalent and is emitted as RegularExpression.";
    IstioPrefixRewriteCaseSensitive = "istio/prefix-rewrite-case-sensitive", Warning,
        "A case-insensitive prefix with a prefix rewrite becomes a case-sensitive PathPrefix with ReplacePrefixMatch.",
        "Istio replaces the matched prefix (`rewrite.uri`, `redirect.prefixRewrite`) also when `ignoreUriCase` makes the match case-insensitive. Gateway API's ReplacePrefixMatch needs a PathPrefix match, which is case-sensitive; a `(?i)` regex with ReplaceFullPath would rewrite every path to the same value. The rule keeps the prefix meaning: other cases of the prefix no longer match it.";
    IstioPrefixRewriteUnsupported = "istio/prefix-rewrite-unsupported", Error,
        "A prefix rewrite on a prefix Gateway API cannot hold as PathPrefix: the match is dropped.",
        "A prefix rewrite (`rewrite.uri`, `redirect.prefixRewrite`) needs a PathPrefix match; this prefix has characters or sequences Gateway API forbids in paths, and a full-path rewrite would send every path to the same value. The match is dropped (the rule too, when it has no other match).";
    IstioPrefixSemantics = "istio/prefix-semantics", Warning,
        "Istio `prefix` is a string prefix.",
        "Istio `prefix` is a string prefix; Gateway API PathPrefix matches whole path segments and ignores a trailing `/`.";
    IstioPresenceMatch = "istio/presence-match", Info,
        "A header/query presence match (no value, or Istio's `regex: \"*\"`) becomes RegularExpression `.*`.",
        "A header/query presence match (no value, or Istio's `regex: \"*\"`, which `route.go` `canBeConvertedToPresentMatch` turns into a present match) becomes RegularExpression `.*`, which matches any value of a present header and nothing when it is missing.";
    IstioRedirectAuthority = "istio/redirect-authority", Error,
        "A redirect authority that is not a precise hostname.",
        "A redirect authority that is not a precise hostname; dropped.";
    IstioRedirectCode = "istio/redirect-code", Error,
        "A redirect code outside 301/302/303/307/308.",
        "A redirect code outside 301/302/303/307/308; 301 written.";
    IstioRedirectCodeDefault = "istio/redirect-code-default", Info,
        "The redirect code is written explicitly as 301 (Istio's default.",
        "The redirect code is written explicitly as 301 (Istio's default; Gateway API's is 302).";
    IstioRedirectDerivePort = "istio/redirect-derive-port", Warning,
        "`derivePort` does not carry over exactly: `FROM_PROTOCOL_DEFAULT` without a scheme keeps the listener port, `FROM_REQUEST_PORT` with a scheme uses the scheme's default port.",
        "`derivePort` does not carry over exactly: `FROM_PROTOCOL_DEFAULT` without a scheme keeps the listener port, `FROM_REQUEST_PORT` with a scheme uses the scheme's default port.";
    IstioRedirectDerivePortUnknown = "istio/redirect-derive-port-unknown", Error,
        "An unknown `derivePort` value is ignored.",
        "An unknown `derivePort` value is ignored.";
    IstioRedirectScheme = "istio/redirect-scheme", Error,
        "A redirect scheme other than http/https.",
        "A redirect scheme other than http/https; dropped.";
    IstioRedirectWithRoute = "istio/redirect-with-route", Warning,
        "`redirect` together with `route`: the destinations are dropped (Gateway API forbids backendRefs next to RequestRedirect).",
        "`redirect` together with `route`: the destinations are dropped (Gateway API forbids backendRefs next to RequestRedirect).";
    IstioRegexMatch = "istio/regex-match", Info,
        "A regex match is emitted as RegularExpression, whose dialect and precedence are implementation-specific.",
        "A regex match is emitted as RegularExpression, whose dialect and precedence are implementation-specific.";
    IstioRegexRewrite = "istio/regex-rewrite", Error,
        "A `uriRegexRewrite` other than a whole-path replacement has no Gateway API equivalent (only full-path and prefix replacement).",
        "A `uriRegexRewrite` other than a whole-path replacement has no Gateway API equivalent (only full-path and prefix replacement); dropped.";
    IstioRegexRewriteFullPath = "istio/regex-rewrite-full-path", Info,
        "A `uriRegexRewrite` that replaces the whole path is written as `ReplaceFullPath`.",
        "A `uriRegexRewrite` that replaces the whole path is written as `ReplaceFullPath`.";
    IstioRegexRewritePrefix = "istio/regex-rewrite-prefix", Info,
        "A `uriRegexRewrite` that strips a prefix (`^/p(/|$)(.*)` → `/\\2`) becomes ReplacePrefixMatch on the rule's PathPrefix `/p` match.",
        "A `uriRegexRewrite` of the strip-prefix form (`^/p(/|$)(.*)` → `/\\2`, or `/q/\\2`) replaces the segment prefix `/p` and keeps the rest, which is exactly ReplacePrefixMatch `/` (or `/q`) on a `PathPrefix /p` match. A match below `/p/` keeps the rest of its path after the replacement: PathPrefix `/p/v1` gets ReplacePrefixMatch `/v1` (or `/q/v1`), Exact `/p/health` gets ReplaceFullPath `/health`. Matches of other paths in the same rule cannot carry it and are reported with `istio/regex-rewrite`.";
    IstioRetries = "istio/retries", Warning,
        "Retries need the Gateway API experimental channel (HTTPRoute `retry`, GEP-1731).",
        "Retries need the Gateway API experimental channel (HTTPRoute `retry`, GEP-1731); on the standard channel they are not translated. Run with `--channel experimental` where the implementation supports it.";
    IstioRolloutTrafficRouting = "istio/rollout-traffic-routing", Warning,
        "An Argo Rollout shifts weights in VirtualServices at runtime: switch it to the Gateway API plugin.",
        "An Argo Rollouts `Rollout` with `trafficRouting.istio` rewrites the weights of its VirtualServices at runtime; the HTTPRoutes that replace them keep the file's weights and nothing updates them. Switch to the Gateway API traffic router plugin (`argoproj-labs/gatewayAPI`) with the generated HTTPRoute's name in the same change.";
    IstioUnweightedDestination = "istio/unweighted-destination", Info,
        "A destination without weight next to weighted ones gets no traffic in Istio: written with weight 0.",
        "With several destinations in a route, Istio skips those whose weight is 0 or unset (`pilot/pkg/networking/core/route/route.go`, the weighted-cluster loop: only a route's single destination is given 100). Gateway API's default weight is 1, which would send such a destination a share of the traffic, so the backendRef is written with `weight: 0` (no traffic), keeping the old split.";
    IstioRetriesDisabled = "istio/retries-disabled", Warning,
        "Retries without `attempts` (or `attempts: 0`) disable retries in Istio; Gateway API cannot say \"no retries\".",
        "Istio turns the retry policy off when `attempts` is 0 or unset, even when `retryOn` or `perTryTimeout` are given (`pilot/pkg/networking/core/route/retry/retry.go`). Gateway API's `retry.attempts` is at least 1, and a route without `retry` gets the implementation's default: on Istio, 2 attempts on connect-failure, refused-stream, unavailable and cancelled. Nothing is written, not even `perTryTimeout` as a backend timeout (it would cut every backend call to the per-try value). Requests that failed once now may be retried; make sure the backend tolerates that.";
    IstioRetriesTranslated = "istio/retries-translated", Info,
        "Retries are written as the experimental HTTPRoute `retry` (GEP-1731) on the experimental channel.",
        "Retries are written as the experimental HTTPRoute `retry` (GEP-1731) on the experimental channel; `perTryTimeout` becomes `timeouts.backendRequest`.";
    IstioRetryHostSelection = "istio/retry-host-selection", Warning,
        "`retryRemoteLocalities` / `retryIgnorePreviousHosts` have no Gateway API equivalent.",
        "`retryRemoteLocalities` / `retryIgnorePreviousHosts` have no Gateway API equivalent.";
    IstioRetryOn = "istio/retry-on", Warning,
        "Retry conditions other than HTTP status codes and connection errors have no Gateway API equivalent.",
        "Retry conditions other than HTTP status codes and connection errors have no Gateway API equivalent; dropped.";
    IstioRetryOn5xx = "istio/retry-on-5xx", Info,
        "`retryOn: 5xx` is written as the codes 500, 502, 503, 504 (Gateway API retries on listed codes only).",
        "`retryOn: 5xx` is written as the codes 500, 502, 503, 504 (Gateway API retries on listed codes only).";
    IstioRewriteAuthority = "istio/rewrite-authority", Error,
        "A rewrite authority that is not a precise hostname is dropped.",
        "A rewrite authority that is not a precise hostname is dropped.";
    IstioRewriteAuthorityPort = "istio/rewrite-authority-port", Warning,
        "The port of a rewritten authority is dropped (`URLRewrite` hostname has no port).",
        "The port of a rewritten authority is dropped (`URLRewrite` hostname has no port).";
    IstioRewritePrefixSemantics = "istio/rewrite-prefix-semantics", Warning,
        "Istio replaces the string prefix verbatim.",
        "Istio replaces the string prefix verbatim; ReplacePrefixMatch replaces whole segments and normalises `/`, so results differ.";
    IstioRewriteWithRedirect = "istio/rewrite-with-redirect", Warning,
        "`rewrite` together with `redirect`: the rewrite is dropped (Gateway API forbids URLRewrite next to RequestRedirect).",
        "`rewrite` together with `redirect`: the rewrite is dropped (Gateway API forbids URLRewrite next to RequestRedirect).";
    IstioRewriteWithoutUriMatch = "istio/rewrite-without-uri-match", Info,
        "A prefix rewrite on a rule without uri match gets an explicit PathPrefix `/` match (the CRD requires exactly one PathPrefix match with ReplacePrefixMatch).",
        "A prefix rewrite on a rule without uri match gets an explicit PathPrefix `/` match (the CRD requires exactly one PathPrefix match with ReplacePrefixMatch). Istio's VirtualService replaces the matched `/` verbatim, so `rewrite.uri: /x` turns `/foo` into `/xfoo`. The Gateway API specification replaces whole segments (`/x/foo`), but Istio's and Envoy Gateway's implementations give Envoy the plain prefix `/` and glue the replacement to the rest as the VirtualService did (istio/istio `pilot/pkg/config/kube/gateway/conversion.go` `createRewriteFilter`; envoyproxy/gateway `internal/xds/translator/route.go` `buildXdsURLRewriteAction`). With `--target generic` other implementations may follow the specification.";
    IstioRouteSplit = "istio/route-split", Info,
        "A VirtualService exceeded the HTTPRoute limits (16 rules, 128 matches, 16 hostnames) and was written as several HTTPRoutes.",
        "A VirtualService exceeded the HTTPRoute limits (16 rules, 128 matches, 16 hostnames) and was written as several HTTPRoutes.";
    IstioRouteUnbound = "istio/route-unbound", Error,
        "No Gateway listener or Service a route can attach to.",
        "No Gateway listener or Service a route can attach to; the route is not generated.";
    IstioRuleDropped = "istio/rule-dropped", Error,
        "None of an entry's matches can be expressed.",
        "None of an entry's matches can be expressed; the entry is dropped.";
    IstioSchemeMatch = "istio/scheme-match", Info,
        "A scheme match becomes a binding to the HTTP or HTTPS listeners only (`sectionName`).",
        "A scheme match becomes a binding to the HTTP or HTTPS listeners only (`sectionName`).";
    IstioSchemeMatchDropped = "istio/scheme-match-dropped", Warning,
        "A scheme match other than exact `http`/`https` has no Gateway API equivalent.",
        "A scheme match other than exact `http`/`https` has no Gateway API equivalent; dropped, so the rule matches more requests.";
    IstioServerBind = "istio/server-bind", Warning,
        "Server `bind` has no Gateway API equivalent.",
        "Server `bind` has no Gateway API equivalent.";
    IstioServerCertificateMissing = "istio/server-certificate-missing", Error,
        "A TLS-terminating server without `credentialName`: Gateway API needs a certificate Secret.",
        "A TLS-terminating server without `credentialName`: Gateway API needs a certificate Secret; the server is skipped.";
    IstioServerDefaultEndpoint = "istio/server-default-endpoint", Warning,
        "Server `defaultEndpoint` (sidecar ingress) has no Gateway API equivalent.",
        "Server `defaultEndpoint` (sidecar ingress) has no Gateway API equivalent.";
    IstioServerHostsCollapsed = "istio/server-hosts-collapsed", Info,
        "A server lists `*/*` among other hosts: Istio serves every host to every namespace there, so the other hosts get no listener of their own.",
        "Istio rewrites a server's hosts before using them (`pilot/pkg/model/gateway.go` `sanitizeServerHostNamespace`): a `*/*` entry replaces the whole list with `*`, so the server admits every host from VirtualServices of every namespace and the other entries (even namespace-restricted ones such as `payments/*.example.com`) have no effect. The translation writes the single catch-all listener Istio effectively had; separate listeners for the other entries would isolate their hosts from the catch-all listener and change where requests go. Remove the other entries, or `*/*`, to say what is meant.";
    IstioServerHostsMissing = "istio/server-hosts-missing", Error,
        "A server without hosts.",
        "A server without hosts; skipped.";
    IstioServerInsecureSkipVerify = "istio/server-insecure-skip-verify", Warning,
        "Server `insecureSkipVerify` has no per-listener Gateway API equivalent (the closest is `spec.tls.frontend` validation mode `AllowInsecureFallback`, per port).",
        "Server `insecureSkipVerify` has no per-listener Gateway API equivalent (the closest is `spec.tls.frontend` validation mode `AllowInsecureFallback`, per port); not translated.";
    IstioServerName = "istio/server-name", Info,
        "A server `port.name` is not kept as the listener name.",
        "A server's `port.name` becomes the listener name when no other server uses it, the server has one host (one listener) and it is a valid SectionName, so scripts selecting a listener by port name keep working. Other listeners follow the spec's `<protocol>-protocol-<namespace>-ns-<host>` scheme.";
    IstioServerPortMissing = "istio/server-port-missing", Error,
        "A server without a usable port: no port, no number, or a number outside 1-65535.",
        "A server without a usable port (no `port`, no `port.number`, or a number outside 1-65535, which Istio rejects too); skipped.";
    IstioServerProtocolMapped = "istio/server-protocol-mapped", Info,
        "HTTP2/GRPC/GRPC-WEB become HTTP or HTTPS listeners.",
        "HTTP2/GRPC/GRPC-WEB become HTTP or HTTPS listeners; MONGO/MYSQL/REDIS become TCP.";
    IstioServerProtocolMissing = "istio/server-protocol-missing", Error,
        "A server port without protocol.",
        "A server port without protocol; skipped.";
    IstioServerProtocolUnsupported = "istio/server-protocol-unsupported", Error,
        "A server protocol with no Gateway API listener protocol (e.g. HTTP_PROXY).",
        "A server protocol with no Gateway API listener protocol (e.g. HTTP_PROXY); skipped.";
    IstioServerTargetPort = "istio/server-target-port", Warning,
        "`port.targetPort` has no Gateway API equivalent.",
        "`port.targetPort` has no Gateway API equivalent.";
    IstioServerTlsIgnored = "istio/server-tls-ignored", Warning,
        "`tls` settings on an HTTP/TCP server have no effect in Istio and are not translated.",
        "`tls` settings on an HTTP/TCP server have no effect in Istio and are not translated.";
    IstioServerTlsMissing = "istio/server-tls-missing", Error,
        "An HTTPS/TLS server without `tls` (Istio rejects it).",
        "An HTTPS/TLS server without `tls` (Istio rejects it); skipped.";
    IstioServerTlsModeUnsupported = "istio/server-tls-mode-unsupported", Error,
        "Unknown server TLS mode.",
        "Unknown server TLS mode; skipped.";
    IstioSharedSelector = "istio/shared-selector", Warning,
        "Several Istio Gateways select the same workload.",
        "Several Istio Gateways select the same workload; each becomes its own Gateway API Gateway with its own deployment and address.";
    IstioShortHost = "istio/short-host", Info,
        "A short VirtualService host (no dot) is matched by Istio as `<name>.<namespace>.svc.<clusterDomain>`.",
        "A short VirtualService host (no dot) is matched by Istio as `<name>.<namespace>.svc.<clusterDomain>`; the route hostname is that FQDN.";
    IstioSourceMatchDecided = "istio/source-match-decided", Info,
        "A `sourceLabels`/`sourceNamespace` condition decided at the gateway: it always holds (left out), never holds (the match is dropped), or holds on some gateways (the match is bound to them).",
        "At a gateway, Istio compares `sourceLabels` and `sourceNamespace` with the gateway proxy itself, not with the client, and ignores both when the match names `gateways` (`pilot/pkg/networking/core/route/route.go` `sourceMatchHTTP`). The translation decides them per Gateway the VirtualService binds to, from the Gateway's `selector` and the pod labels and namespace of the workloads it selects: a condition the proxy always satisfies is left out, a match it never satisfies is dropped as Istio never applied it (an entry left without matches goes too), and a match that holds on some of the gateways is bound to those only. Nothing changes for requests; the note says which case applied.";
    IstioSourceLabels = "istio/source-labels", Warning,
        "`sourceLabels` (client workload selector) has no Gateway API equivalent.",
        "`sourceLabels` (client workload selector) has no Gateway API equivalent; dropped.";
    IstioSourceNamespace = "istio/source-namespace", Warning,
        "`sourceNamespace` has no Gateway API equivalent.",
        "`sourceNamespace` has no Gateway API equivalent; dropped.";
    IstioSniOutsideListener = "istio/sni-outside-listener", Warning,
        "A tls entry's SNI host that Istio passed through but no listener of the new Gateway covers: those connections are refused after migration.",
        "For a passthrough server, Istio builds one filter chain per tls match with the match's own `sniHosts`, as long as the VirtualService's hosts meet the server's hosts (`pilot/pkg/networking/core/gateway.go` `buildGatewayNetworkFiltersFromTLSRoutes`); an SNI host outside the server's hosts is forwarded too. Gateway API only routes the part of a TLSRoute hostname that the listener's hostname covers, so connections for such a host find no route. Add the host to the Istio server's `hosts` (the translation then writes a listener for it) before migrating.";
    IstioStatPrefix = "istio/stat-prefix", Info,
        "A match's `statPrefix` or a server's `name` (names of Envoy statistics) has no Gateway API equivalent.",
        "A match's `statPrefix` and a server's `name` only name Envoy statistics (`pilot/pkg/networking/core/route/route.go` `TranslateRoute`; `pilot/pkg/networking/core/gateway.go` `createGatewayHTTPFilterChainOpts`). Gateway API has no field for them, so the implementation names the new statistics itself; routing is unchanged. Update dashboards and alerts that read the old names.";
    IstioSubset = "istio/subset", Warning,
        "A `subset` has no Gateway API equivalent: the backendRef names a per-version Service `<service>-<subset>` that must be created (Istio's migration guidance).",
        "A `subset` has no Gateway API equivalent: the backendRef names a per-version Service `<service>-<subset>` that must be created (Istio's migration guidance).";
    IstioSubsetTls = "istio/subset-tls", Info,
        "DestinationRule tls applies to each subset: one BackendTLSPolicy per per-version Service.",
        "Istio applies a DestinationRule's tls to every subset unless the subset sets its own. Routes send subset traffic to per-version Services, so each gets its own BackendTLSPolicy with the merged settings.";
    IstioSubsetTrafficPolicy = "istio/subset-traffic-policy", Warning,
        "A subset's trafficPolicy is not translated.",
        "A subset's trafficPolicy is not translated; apply it to the per-version Service.";
    IstioTcpRouteOnTlsListener = "istio/tcp-route-on-tls-listener", Warning,
        "tcp entries served by an Istio TLS server that terminates become a TCPRoute on a TLS/Terminate listener: Istio and Envoy Gateway accept it, the Gateway API spec (v1.5+) does not.",
        "tcp entries served by an Istio TLS server that terminates become a TCPRoute on a TLS/Terminate listener: Istio and Envoy Gateway accept it, the Gateway API spec (v1.5+) does not.";
    IstioTcpRouteOrder = "istio/tcp-route-order", Warning,
        "Several tcp entries bind to the same listener: Istio falls through them in order, Gateway API gives the listener's traffic to the oldest TCPRoute only.",
        "Several tcp entries bind to the same listener: Istio falls through them in order, Gateway API gives the listener's traffic to the oldest TCPRoute only.";
    IstioTimeoutFormat = "istio/timeout-format", Info,
        "A timeout was rewritten in Gateway API's duration format (e.g. `1.5s` → `1s500ms`).",
        "A timeout was rewritten in Gateway API's duration format (e.g. `1.5s` → `1s500ms`).";
    IstioTlsModeDefault = "istio/tls-mode-default", Warning,
        "`tls.mode` unset with `credentialName`: Istio treats it as PASSTHROUGH.",
        "`tls.mode` unset with `credentialName`: Istio treats it as PASSTHROUGH.";
    IstioTlsProtocolVersion = "istio/tls-protocol-version", Warning,
        "`minProtocolVersion` / `maxProtocolVersion` have no Gateway API or Istio listener-option equivalent.",
        "`minProtocolVersion` / `maxProtocolVersion` have no Gateway API or Istio listener-option equivalent.";
    IstioTlsRouteNoHostname = "istio/tls-route-no-hostname", Error,
        "A tls entry without any SNI hostname usable by a TLSRoute.",
        "A tls entry without any SNI hostname usable by a TLSRoute; not generated.";
    IstioTooManyBackends = "istio/too-many-backends", Error,
        "More than 16 destinations.",
        "More than 16 destinations; the rest were dropped.";
    IstioTooManyConditions = "istio/too-many-conditions", Error,
        "More than 16 header or query conditions in a match.",
        "More than 16 header or query conditions in a match; the rest were dropped.";
    IstioTooManyHeaders = "istio/too-many-headers", Error,
        "More than 16 headers in a set/add/remove list.",
        "More than 16 headers in a set/add/remove list; the rest were dropped.";
    IstioTooManyListeners = "istio/too-many-listeners", Error,
        "More than 64 listeners for one Gateway.",
        "More than 64 listeners for one Gateway; the rest were dropped (split the Gateway or use ListenerSets).";
    IstioTooManyParentRefs = "istio/too-many-parent-refs", Error,
        "More than 32 parentRefs.",
        "More than 32 parentRefs; the rest were dropped.";
    IstioTrafficPolicyLost = "istio/traffic-policy-lost", Warning,
        "A DestinationRule's loadBalancer, connectionPool, outlierDetection (or another traffic policy) no longer applies to the traffic the new routes send: the target does not read DestinationRules, or the traffic now goes to per-version Services.",
        "Istio applies a DestinationRule's traffic policy (load balancing and consistent-hash affinity, connection limits, outlier ejection, proxy protocol, tunnel) to every request its gateway sends to the rule's host (`pilot/pkg/networking/core/cluster_builder.go` `applyTrafficPolicy`). Gateway API has no standard field for these. On the Istio target the DestinationRule keeps applying, except to traffic the new routes send to per-version Services (`<service>-<subset>`), which are other hosts: copy the policy into a DestinationRule for each. Other targets do not read DestinationRules at all: sticky sessions, circuit breaking and ejection are gone unless the implementation's own policy (Envoy Gateway `BackendTrafficPolicy`, for example) is written.";
    IstioDestinationRuleNotVisible = "istio/destination-rule-not-visible", Info,
        "A DestinationRule the gateway proxies never used (exportTo hides it, or another rule for the same Service comes first): nothing is translated.",
        "Istio looks DestinationRules up from the client proxy's namespace and honours `exportTo` (`pilot/pkg/model/push_context.go` `destinationRule`): first the rules of the proxy's own namespace (in the root namespace, only those exported to `.`), then those of the Service's namespace exported to the proxy, then those of the root namespace. A rule exported only to namespaces where no gateway proxy runs, or one that another rule for the same Service precedes, never applied to gateway traffic, so writing a BackendTLSPolicy (or any other policy) from it would change what the gateway sends, for example add TLS to plaintext traffic. Nothing is translated. Sidecars that see the rule keep using it.";
    IstioTrafficPolicyKept = "istio/traffic-policy-kept", Info,
        "loadBalancer, connectionPool, outlierDetection, ...",
        "loadBalancer, connectionPool, outlierDetection, ... have no standard Gateway API equivalent; on Istio keep the DestinationRule, which still applies.";
    IstioUnknownField = "istio/unknown-field", Warning,
        "A field the Istio API model does not know.",
        "A field the Istio API model does not know; not translated.";
    IstioWildcardHost = "istio/wildcard-host", Info,
        "Hosts include `*`: the routes carry no hostnames.",
        "Hosts include `*`: the routes carry no hostnames.";
    IstioWithoutHeaders = "istio/without-headers", Warning,
        "`withoutHeaders` (negative match) has no Gateway API equivalent.",
        "`withoutHeaders` (negative match) has no Gateway API equivalent; dropped, the rule matches more requests.";
    IstioWorkloadSelector = "istio/workload-selector", Warning,
        "DestinationRule `workloadSelector` has no Gateway API equivalent.",
        "DestinationRule `workloadSelector` has no Gateway API equivalent.";
    // ── Ingress translation ──
    IngressAnnotationIgnoredByClass = "ingress/annotation-ignored-by-class", Info,
        "An ingress-nginx annotation on an Ingress another controller served (or whose controller is unknown) is not translated.",
        "An ingress-nginx annotation on an Ingress another controller served had no effect there, so it is not translated; the controller comes from the IngressClass, the configuration or the class name, never from the annotations. When nothing says which controller served the class, set `ingressClasses.<class>.dialect`.";
    IngressCertManager = "ingress/cert-manager", Warning,
        "cert-manager annotations act on Gateways only when placed on the Gateway.",
        "cert-manager annotations act on Gateways only when placed on the Gateway; move them there.";
    IngressClassAnnotation = "ingress/class-annotation", Warning,
        "An annotation of another controller (Traefik, GKE, ALB, Istio, Kong, HAProxy, F5 NGINX, Contour) is not translated.",
        "An annotation of another controller (Traefik, GKE, ALB, Istio, Kong, HAProxy, F5 NGINX, Contour) is not translated; for GKE and AWS annotations with a Gateway API counterpart on that cloud (static IP, managed certificates, FrontendConfig, BackendConfig, scheme, certificates, target groups) the message names it.";
    IngressClassChoice = "ingress/class-choice", Warning,
        "Which controller served an IngressClass, or which GatewayClass will serve it, was not configured: the choice made is named.",
        "Which controller served an IngressClass (its dialect: which annotations took effect), or which GatewayClass will serve it, was not configured: the choice made and its evidence (the IngressClass's controller, the class name, the GKE class, the gatewayClassName setting) are named once per class. Confirm it with `ingressClasses.<class>` (`dialect`, `gatewayClassName`) in .gateway-migrate.yaml; `\"*\"` covers Ingresses without a class and classes not listed.";
    IngressDefaultBackend = "ingress/default-backend", Info,
        "migrate: `defaultBackend` becomes a catch-all HTTPRoute `<ingress>-default-backend` on the hostless listener plus a `PathPrefix /` rule on each host route lacking one.",
        "migrate: `defaultBackend` becomes a catch-all HTTPRoute `<ingress>-default-backend` on the hostless listener plus a `PathPrefix /` rule on each host route lacking one.";
    IngressDefaultBackendNotMounted = "ingress/default-backend-not-mounted", Warning,
        "mount: `defaultBackend` is not translated.",
        "mount: `defaultBackend` is not translated; the Gateway's owner decides where unmatched requests go.";
    IngressDefaultClass = "ingress/default-class", Info,
        "The Ingress names no class.",
        "The Ingress names no class; the IngressClass the repository marks `ingressclass.kubernetes.io/is-default-class` is used.";
    IngressDuplicatePath = "ingress/duplicate-path", Warning,
        "The same path appears twice for a host in one Ingress.",
        "The same path appears twice for a host in one Ingress; the first one is kept, as ingress-nginx does.";
    IngressGatewayCreated = "ingress/gateway-created", Info,
        "migrate: the Gateway created for an IngressClass (attached once, to the first Ingress of the class).",
        "migrate: the Gateway created for an IngressClass (attached once, to the first Ingress of the class).";
    IngressHostlessRuleSkipped = "ingress/hostless-rule-skipped", Info,
        "`requireHostname` is set: a rule without a host is skipped.",
        "`requireHostname` is set: a rule without a host is skipped.";
    IngressImplementationSpecificPath = "ingress/implementation-specific-path", Info,
        "An `ImplementationSpecific` plain path is a prefix for the controller; it becomes `PathPrefix`, and the message says what that changes.",
        "An `ImplementationSpecific` plain path is a prefix for the controller; it becomes `PathPrefix`, and the message says what that changes: for ingress-nginx (without regex matching on the host) it was a literal string prefix, so `/foo` matched `/foobar` and `/foo/` did not match `/foo`; a `/foo/*` glob did not match `/foo` itself. `/` changes nothing and is not reported.";
    IngressImplementationSpecificRegex = "ingress/implementation-specific-regex", Warning,
        "An `ImplementationSpecific` path that is a regular expression (or any such path in mount mode) becomes `RegularExpression`.",
        "An `ImplementationSpecific` path that is a regular expression (or any such path in mount mode) becomes `RegularExpression`; its dialect and anchoring are implementation-specific.";
    IngressInvalidHost = "ingress/invalid-host", Error,
        "The host is not a valid Gateway API hostname (IP address, uppercase, misplaced `*`).",
        "The host is not a valid Gateway API hostname (IP address, uppercase, misplaced `*`); its rule is not translated.";
    IngressInvalidPath = "ingress/invalid-path", Warning,
        "An `Exact`/`Prefix` path the CRD rejects (`//`, `|`, `?`, ...) is matched as an escaped `RegularExpression` instead.",
        "An `Exact`/`Prefix` path the CRD rejects (`//`, `|`, `?`, ...) is matched as an escaped `RegularExpression` instead: the path itself for Exact; for Prefix the path or the path followed by `/…` (whole elements, as Prefix means), written `<escaped>(/.*)?`. Regex precedence is implementation-specific.";
    IngressListenerLimit = "ingress/listener-limit", Warning,
        "migrate: the class needs more than the 64 listeners a Gateway may have, so its hosts are split over several Gateways (`<name>`, `<name>-2`, ...), all listeners of a host on the same one.",
        "migrate: the class needs more than the 64 listeners a Gateway may have, so its hosts are split over several Gateways (`<name>`, `<name>-2`, ...), all listeners of a host on the same one; each Gateway gets its own address, so DNS must point each host at its Gateway.";
    IngressMissingBackend = "ingress/missing-backend", Error,
        "The backend names neither a Service nor a resource (or an invalid port).",
        "The backend names neither a Service nor a resource (or an invalid port); the path has no backend.";
    IngressMountNarrowed = "ingress/mount-narrowed", Warning,
        "mount: no listener covers the whole wildcard host; the route attaches to the listeners for names under it, and serves only those.",
        "mount: no listener covers the whole wildcard host (no wildcard or catch-all listener admits it), but listeners for names under it do: by Gateway API's hostname intersection the route attaches to them and serves only their names. Other names under the wildcard are no longer served; add a wildcard listener if they were in use.";
    IngressMountNoGateway = "ingress/mount-no-gateway", Warning,
        "mount: no Gateway listener accepts the host (hostname, protocol, `allowedRoutes.namespaces` or `kinds`).",
        "mount: no Gateway listener accepts the host (hostname, protocol, `allowedRoutes.namespaces` or `kinds`); the message names the host and every refusal; no route is written for it.";
    IngressMountNoHttps = "ingress/mount-no-https", Warning,
        "mount: the Ingress has TLS for the host, but the selected Gateway has no HTTPS listener accepting it.",
        "mount: the Ingress has TLS for the host, but the selected Gateway has no HTTPS listener accepting it; it is served over HTTP only.";
    IngressMountTls = "ingress/mount-tls", Info,
        "mount: `spec.tls` is not translated.",
        "mount: `spec.tls` is not translated; TLS is configured by the Gateway's owner.";
    IngressNamedPort = "ingress/named-port", Info,
        "A named Service port was resolved to its number through the Service manifest in the repository.",
        "A named Service port was resolved to its number through the Service manifest in the repository.";
    IngressNamedPortUnresolved = "ingress/named-port-unresolved", Error,
        "A Service port (named, or absent with a multi-port or unknown Service) cannot be resolved.",
        "A Service port (named, or absent with a multi-port or unknown Service) cannot be resolved; a Service backendRef needs a port, so the backend is dropped.";
    IngressNoClass = "ingress/no-class", Warning,
        "No class anywhere (field, legacy annotation, default IngressClass): the Ingress goes to a Gateway named `ingress` (or `ingressGatewayName`).",
        "No class anywhere (field, legacy annotation, default IngressClass): the Ingress goes to a Gateway named `ingress` (or `ingressGatewayName`); check it is the controller that really served it.";
    IngressNothingToRoute = "ingress/nothing-to-route", Warning,
        "The Ingress has no usable rule and no defaultBackend.",
        "The Ingress has no usable rule and no defaultBackend; nothing is generated for it.";
    IngressResourceBackend = "ingress/resource-backend", Info,
        "A `resource` backend is kept as a backendRef with its group and kind.",
        "A `resource` backend is kept as a backendRef with its group and kind; support is implementation-specific.";
    IngressRouteSplit = "ingress/route-split", Info,
        "More than 16 rules for one host: the route is split into `<name>`, `<name>-2`, ...",
        "More than 16 rules for one host: the route is split into `<name>`, `<name>-2`, ... (Gateway API allows 16 rules per route).";
    IngressRuleWithoutPaths = "ingress/rule-without-paths", Info,
        "An Ingress rule without `http.paths` routes none of its paths.",
        "An Ingress rule without `http.paths` routes none of its paths; with ingress-nginx, when the Ingress created the host's server, its `defaultBackend` still serves the host's unmatched paths, and the translation keeps that.";
    IngressServicePortNotFound = "ingress/service-port-not-found", Warning,
        "The Service manifest in the repository has no port with that number.",
        "The Service manifest in the repository has no port with that number; the backendRef keeps it (it will not resolve).";
    IngressTlsHostWithoutRule = "ingress/tls-host-without-rule", Info,
        "migrate: a `spec.tls` host has no rule.",
        "migrate: a `spec.tls` host has no rule; no listener is created for it.";
    IngressTlsWithoutHosts = "ingress/tls-without-hosts", Info,
        "migrate: a `spec.tls` entry lists no hosts.",
        "migrate: a `spec.tls` entry lists no hosts; its certificate is used for every host of the Ingress.";
    IngressTlsWithoutSecret = "ingress/tls-without-secret", Error,
        "migrate: a `spec.tls` entry has no `secretName` (the controller's default certificate served it).",
        "migrate: a `spec.tls` entry has no `secretName` (the controller's default certificate served it); an HTTPS listener needs certificateRefs, so none is created.";
    IngressWildcardHost = "ingress/wildcard-host", Warning,
        "An Ingress `*.foo.com` matches exactly one label.",
        "An Ingress `*.foo.com` matches exactly one label; the Gateway API wildcard matches any number (`a.b.foo.com` too).";
    // ── ingress-nginx annotations ──
    NginxAffinity = "ingress-nginx/affinity", Warning,
        "`nginx.ingress.kubernetes.io/affinity` is not translated: session affinity: Gateway API sessionPersistence is experimental and not implemented by Istio (use a DestinationRule consistentHash).",
        "`nginx.ingress.kubernetes.io/affinity` is not translated: session affinity: Gateway API sessionPersistence is experimental and not implemented by Istio (use a DestinationRule consistentHash).";
    NginxAffinityCanaryBehavior = "ingress-nginx/affinity-canary-behavior", Warning,
        "`nginx.ingress.kubernetes.io/affinity-canary-behavior` is not translated: session affinity with canaries has no equivalent.",
        "`nginx.ingress.kubernetes.io/affinity-canary-behavior` is not translated: session affinity with canaries has no equivalent.";
    NginxAffinityMode = "ingress-nginx/affinity-mode", Warning,
        "`nginx.ingress.kubernetes.io/affinity-mode` is not translated: session affinity mode has no equivalent.",
        "`nginx.ingress.kubernetes.io/affinity-mode` is not translated: session affinity mode has no equivalent.";
    NginxControllerConfigAssumed = "ingress-nginx/controller-config-assumed", Warning,
        "The ingress-nginx controller of a class is not in the repository or the configuration: its defaults are assumed; confirm them.",
        "What a request gets from ingress-nginx depends on the controller's ConfigMap and flags as much as on the Ingress: HSTS on every HTTPS answer, the HTTPS redirect and its ACME exemption, proxy timeouts, the request body limit, which annotations load (`annotations-risk-level`, `allow-snippet-annotations`, `--annotations-prefix`), whether `ssl-passthrough` works (`--enable-ssl-passthrough`), the certificate hosts without `tls` answer with (`--default-ssl-certificate`), global allow-lists and external auth. The repository installs no controller for this class (no controller workload, no Helm release of the `ingress-nginx` chart in a Flux HelmRelease or Argo CD Application) and `.gateway-migrate.yaml` has no `controllers.<class>`, so the translation and the equivalence check assume ingress-nginx's defaults, except that the annotations the Ingresses use are taken to have taken effect (`annotations-risk-level` Critical, snippets allowed, `--enable-ssl-passthrough`), all listed in the message and in the report's `controllers` section. Confirm them against the cluster (`kubectl get cm,deploy -n ingress-nginx -o yaml`), then give the controller's ConfigMap and flags with `controllers.<class>` or `--controller-config [CLASS=]FILE`; see docs/controllers.md.";
    NginxControllerSetting = "ingress-nginx/controller-setting", Warning,
        "The ingress-nginx controller sets ConfigMap keys or flags away from their defaults that change what clients get and that the migration does not carry over.",
        "The controller's configuration (from the repository, `controllers.<class>` or `--controller-config`) has settings that change answers, such as global timeouts, body size limits, custom error pages, forwarded-header handling or a default backend, set to values other than ingress-nginx's defaults, and the migration does not apply them: the Gateway API routes get the target implementation's defaults instead. `docs/controllers.md` lists every key and flag and whether it is translated, modelled or reported here. Check what each listed setting did and configure the target's equivalent (Envoy Gateway: ClientTrafficPolicy, BackendTrafficPolicy; Istio: the mesh or a DestinationRule) before cutting over.";
    NginxControllerConfigIncomplete = "ingress-nginx/controller-config-incomplete", Warning,
        "The ingress-nginx controller's configuration was found, but part of it is not known (values not read, a ConfigMap not found, another installation of the same class).",
        "The repository installs the controller of this class, and the translation and the check use what it says; but something the controller also reads is not in what was read: a Flux `HelmRelease`'s `valuesFrom` or an Argo CD Application's `valueFiles` (not read), a ConfigMap its `--configmap` names that the repository does not hold (or that is too large to be read: ConfigMaps that do not name nginx are read up to 16 KiB), or a second installation of the same controller class (both controllers serve its IngressClasses; the first one read is used). Confirm the settings listed under `controllers` in the JSON report, and give the full configuration with `controllers.<class>` in `.gateway-migrate.yaml` or `--controller-config`.";
    NginxIngressNotWatched = "ingress-nginx/ingress-not-watched", Warning,
        "The controller's configuration says it never loaded this Ingress (namespace not watched, another legacy class, `--disable-catch-all`, a blocklisted annotation word); nothing is translated.",
        "ingress-nginx loads only some Ingresses: with `--watch-namespace` those of that namespace, with `--watch-namespace-selector` those of the namespaces whose labels match (`pkg/flags/flags.go`; the store's informers are built on that scope); with the legacy `kubernetes.io/ingress.class` annotation, those whose value equals `--ingress-class` (`store.go` `GetIngressClass`); with `--disable-catch-all`, none that has a `defaultBackend`; none whose annotation values contain a word of the ConfigMap's `annotation-value-word-blocklist` (`store.go` `syncIngress`). The controller never served this Ingress; publishing a route for it would expose a service that was not reachable, so nothing is translated. If another controller served it, describe that one (`controllers.<class>`).";
    NginxAnnotationPrefix = "ingress-nginx/annotation-prefix", Warning,
        "The controller reads annotations under another prefix (`--annotations-prefix`): these annotations had no effect and are not translated.",
        "ingress-nginx reads only the annotations under its `--annotations-prefix` (`pkg/flags/flags.go`, default `nginx.ingress.kubernetes.io`; `parser.GetAnnotationWithPrefix`). The controller that served this Ingress runs with another prefix, so the annotations under `nginx.ingress.kubernetes.io/` did nothing (an allow-list or auth among them never protected anything) and are not translated; those under the controller's prefix are. If the controller's flags are wrong, fix `controllers.<class>.flags` or `--controller-config`.";
    NginxSslPassthroughDisabled = "ingress-nginx/ssl-passthrough-disabled", Warning,
        "`ssl-passthrough` had no effect: the controller runs without `--enable-ssl-passthrough`, so the Ingress is translated as an ordinary one.",
        "ingress-nginx honours `ssl-passthrough` only when started with `--enable-ssl-passthrough` (`internal/ingress/controller/controller.go` sets up passthrough backends only when `IsSSLPassthroughEnabled`; the default is off). The controller's known flags do not enable it, so TLS ended at nginx and the Ingress's HTTP rules were served: the translation does the same (no TLSRoute). If the controller does run with the flag, add it to `controllers.<class>.flags`.";
    NginxSnippetDropped = "ingress-nginx/snippet-dropped", Info,
        "The controller's `allow-snippet-annotations` is off: it removed this snippet before use, so it had no effect and is not translated.",
        "With `allow-snippet-annotations: \"false\"` (the default since v1.9), `internal/ingress/controller/controller.go` `dropSnippetDirectives` empties `configuration-snippet`, `server-snippet`, `modsecurity-snippet`, `auth-snippet` and `stream-snippet` of every Ingress before the configuration is written (and the admission webhook refuses new ones). The snippet did nothing in the cluster; nothing is lost by not translating it.";
    NginxDefaultCertificate = "ingress-nginx/default-certificate", Info,
        "A host without a certificate of its own was answered over HTTPS with the controller's default certificate: it gets an HTTPS listener with that certificate.",
        "ingress-nginx answers HTTPS for every host, using the certificate of `--default-ssl-certificate` when the host has no Secret of its own (`certificate.lua` falls back to the default certificate; `controller.go` `createServers`). The migration keeps that: the host gets an HTTPS listener whose `certificateRefs` name the default certificate's Secret (with a ReferenceGrant when it lives in another namespace). Clients saw that certificate before; they see it still. HTTP is not redirected for such hosts, as before (the redirect needs a certificate of the host's own).";
    NginxAppRoot = "ingress-nginx/app-root", Info,
        "`app-root`: an `Exact /` rule redirects (302) to the application root, as ingress-nginx does.",
        "`app-root`: an `Exact /` rule redirects (302) to the application root, as ingress-nginx does.";
    NginxAppRootNotAPath = "ingress-nginx/app-root-not-a-path", Warning,
        "`app-root` is not a path (ingress-nginx accepts only paths), so it is not translated.",
        "`app-root` is not a path (ingress-nginx accepts only paths), so it is not translated.";
    NginxAuthCacheDuration = "ingress-nginx/auth-cache-duration", Error,
        "`nginx.ingress.kubernetes.io/auth-cache-duration` is not translated: external authentication caching has no equivalent.",
        "`nginx.ingress.kubernetes.io/auth-cache-duration` is not translated: external authentication caching has no equivalent.";
    NginxAuthCacheKey = "ingress-nginx/auth-cache-key", Error,
        "`nginx.ingress.kubernetes.io/auth-cache-key` is not translated: external authentication caching has no equivalent.",
        "`nginx.ingress.kubernetes.io/auth-cache-key` is not translated: external authentication caching has no equivalent.";
    NginxAuthMethod = "ingress-nginx/auth-method", Error,
        "`nginx.ingress.kubernetes.io/auth-method` is not translated: part of external authentication (auth-url), not translated.",
        "`nginx.ingress.kubernetes.io/auth-method` is not translated: part of external authentication (auth-url), not translated.";
    NginxAuthRequestRedirect = "ingress-nginx/auth-request-redirect", Error,
        "`nginx.ingress.kubernetes.io/auth-request-redirect` is not translated: part of external authentication (auth-url), not translated.",
        "`nginx.ingress.kubernetes.io/auth-request-redirect` is not translated: part of external authentication (auth-url), not translated.";
    NginxAuthSignin = "ingress-nginx/auth-signin", Error,
        "`nginx.ingress.kubernetes.io/auth-signin` is not translated: the sign-in redirect of external authentication has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/auth-signin` is not translated: the sign-in redirect of external authentication has no Gateway API equivalent.";
    NginxAuthSnippet = "ingress-nginx/auth-snippet", Error,
        "`nginx.ingress.kubernetes.io/auth-snippet` is not translated: nginx configuration snippet for authentication.",
        "`nginx.ingress.kubernetes.io/auth-snippet` is not translated: nginx configuration snippet for authentication; no equivalent.";
    NginxAuthTlsErrorPage = "ingress-nginx/auth-tls-error-page", Error,
        "`nginx.ingress.kubernetes.io/auth-tls-error-page` is not translated: client-certificate error page has no equivalent.",
        "`nginx.ingress.kubernetes.io/auth-tls-error-page` is not translated: client-certificate error page has no equivalent.";
    NginxAuthTlsMatchCn = "ingress-nginx/auth-tls-match-cn", Error,
        "`nginx.ingress.kubernetes.io/auth-tls-match-cn` is not translated: client-certificate CN matching has no equivalent.",
        "`nginx.ingress.kubernetes.io/auth-tls-match-cn` is not translated: client-certificate CN matching has no equivalent.";
    NginxAuthTlsPassCertificateToUpstream = "ingress-nginx/auth-tls-pass-certificate-to-upstream", Error,
        "`nginx.ingress.kubernetes.io/auth-tls-pass-certificate-to-upstream` is not translated: passing the client certificate upstream has no standard equivalent.",
        "`nginx.ingress.kubernetes.io/auth-tls-pass-certificate-to-upstream` is not translated: passing the client certificate upstream has no standard equivalent.";
    NginxAuthTlsVerifyClient = "ingress-nginx/auth-tls-verify-client", Error,
        "`nginx.ingress.kubernetes.io/auth-tls-verify-client` is not translated: client-certificate verification belongs on the Gateway (spec.tls.frontend.validation).",
        "`nginx.ingress.kubernetes.io/auth-tls-verify-client` is not translated: client-certificate verification belongs on the Gateway (spec.tls.frontend.validation); not translated.";
    NginxAuthTlsVerifyDepth = "ingress-nginx/auth-tls-verify-depth", Error,
        "`nginx.ingress.kubernetes.io/auth-tls-verify-depth` is not translated: client-certificate chain depth has no equivalent.",
        "`nginx.ingress.kubernetes.io/auth-tls-verify-depth` is not translated: client-certificate chain depth has no equivalent.";
    NginxBackendProtocolGrpc = "ingress-nginx/backend-protocol-grpc", Info,
        "`backend-protocol: GRPC|GRPCS`: hosts become GRPCRoutes.",
        "`backend-protocol: GRPC|GRPCS`: hosts become GRPCRoutes; `/pkg.Service/Method` paths become method matches.";
    NginxBackendProtocolUnsupported = "ingress-nginx/backend-protocol-unsupported", Error,
        "`backend-protocol` AJP/FCGI/...: no Gateway API equivalent.",
        "`backend-protocol` AJP/FCGI/...: no Gateway API equivalent; backends are reached over HTTP.";
    NginxBackendTlsVerification = "ingress-nginx/backend-tls-verification", Warning,
        "`backend-protocol: HTTPS|GRPCS` → BackendTLSPolicy, which always verifies the backend certificate (system CAs, or the `proxy-ssl-secret` CA as a ConfigMap) for `proxy-ssl-name` or the Service DNS name.",
        "`backend-protocol: HTTPS|GRPCS` → BackendTLSPolicy, which always verifies the backend certificate (system CAs, or the `proxy-ssl-secret` CA as a ConfigMap) for `proxy-ssl-name` or the Service DNS name; ingress-nginx does not verify unless `proxy-ssl-verify` is on.";
    NginxCanaryByCookie = "ingress-nginx/canary-by-cookie", Error,
        "`canary-by-cookie`: Gateway API cannot match cookies.",
        "`canary-by-cookie`: Gateway API cannot match cookies; requests with the cookie no longer reach the canary.";
    NginxCanaryByHeader = "ingress-nginx/canary-by-header", Error,
        "`canary-by-header` is not a valid HTTP header name.",
        "`canary-by-header` is not a valid HTTP header name; the header canary is not translated.";
    NginxCanaryByHeaderPattern = "ingress-nginx/canary-by-header-pattern", Warning,
        "`canary-by-header-pattern` (an unanchored PCRE search in nginx) becomes the whole-value `RegularExpression` header match `.*(?:pattern).*`.",
        "`canary-by-header-pattern` is an unanchored PCRE search in nginx (`balancer.lua`, `ngx.re.match`) and Gateway API header regexes match the whole value, so the match is `.*(?:pattern).*`; a pattern only PCRE accepts is `ingress-nginx/pcre-only-regex` instead. Header regex matching is Extended support in Gateway API.";
    NginxCanaryDuplicate = "ingress-nginx/canary-duplicate", Warning,
        "A second canary for the same path.",
        "A second canary for the same path; ingress-nginx supports one, the extra one is not translated.";
    NginxCanaryMerged = "ingress-nginx/canary-merged", Info,
        "A canary Ingress was merged into its primary's route (weights on the primary rule's backends, header rules beside it).",
        "A canary Ingress was merged into its primary's route (weights on the primary rule's backends, header rules beside it); both Ingresses say where.";
    NginxCanaryPathNotInPrimary = "ingress-nginx/canary-path-not-in-primary", Warning,
        "A canary path has no matching path in the primary Ingress.",
        "A canary path has no matching path in the primary Ingress; ingress-nginx ignores it, so it is not translated.";
    NginxCanaryWeight = "ingress-nginx/canary-weight", Error,
        "`canary-weight` / `canary-weight-total` is not a number.",
        "`canary-weight` / `canary-weight-total` is not a number; ignored.";
    NginxCanaryWithoutCanary = "ingress-nginx/canary-without-canary", Info,
        "`canary-*` annotations without `canary: \"true\"` had no effect and are not translated.",
        "`canary-*` annotations without `canary: \"true\"` had no effect and are not translated.";
    NginxCanaryUpstreamWide = "ingress-nginx/canary-upstream-wide", Info,
        "A canary splits every path routed to the primary's Service, not only the path it names; so does the translation.",
        "ingress-nginx merges a canary into the location of the same host and path, but attaches it to that location's upstream (namespace, Service, port: `controller.go` `mergeAlternativeBackend`), and `balancer.lua` picks the canary by upstream: every other path and host routed to the same Service splits the same way (kubernetes/ingress-nginx issues 4667, 8689). The translation applies the same split there.";
    NginxCanaryWithoutPrimary = "ingress-nginx/canary-without-primary", Warning,
        "A canary Ingress has no non-canary Ingress with the same host in its namespace.",
        "A canary Ingress has no non-canary Ingress with the same host in its namespace; its rules get their own route (header conditions applied, weights meaningless).";
    NginxClassesShareController = "ingress-nginx/classes-share-controller", Warning,
        "Several IngressClasses of one ingress-nginx controller share a host: one nginx server, but one Gateway per class.",
        "IngressClasses whose `spec.controller` is the same are watched by one ingress-nginx (`store.go` `ingressClassEventHandler`), which builds one server per host from the Ingresses of all of them: HTTPS redirects, host-wide regex matching and duplicate paths are decided across the classes, and the translation decides them the same way. `migrate` still creates one Gateway per class, so the host is served on several addresses; map the classes to one Gateway or point DNS at one.";
    NginxClientBodyBufferSize = "ingress-nginx/client-body-buffer-size", Warning,
        "`nginx.ingress.kubernetes.io/client-body-buffer-size` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/client-body-buffer-size` is not translated: nginx buffering has no equivalent.";
    NginxConfigurationSnippet = "ingress-nginx/configuration-snippet", Error,
        "`nginx.ingress.kubernetes.io/configuration-snippet` is not translated: raw nginx configuration cannot be translated.",
        "`nginx.ingress.kubernetes.io/configuration-snippet` is not translated: raw nginx configuration cannot be translated; review what it did.";
    NginxConnectionProxyHeader = "ingress-nginx/connection-proxy-header", Info,
        "`nginx.ingress.kubernetes.io/connection-proxy-header` is not translated: the Connection header is hop-by-hop.",
        "`nginx.ingress.kubernetes.io/connection-proxy-header` is not translated: the Connection header is hop-by-hop; implementations manage it.";
    NginxCorsDefaults = "ingress-nginx/cors-defaults", Warning,
        "`enable-cors`: CORS filter with ingress-nginx's values written out (its defaults differ from Gateway API's: credentials allowed, fixed methods and headers, max-age 1728000).",
        "`enable-cors`: CORS filter with ingress-nginx's values written out (its defaults differ from Gateway API's: credentials allowed, fixed methods and headers, max-age 1728000); nginx origin wildcards match one label, Gateway API ones any number.";
    NginxCorsMethod = "ingress-nginx/cors-method", Warning,
        "A `cors-allow-methods` entry Gateway API does not accept is dropped.",
        "A `cors-allow-methods` entry Gateway API does not accept is dropped.";
    NginxCorsOrigin = "ingress-nginx/cors-origin", Info,
        "ingress-nginx skipped an origin (or, for a value that fails its validation, allowed `*`); the translation does the same.",
        "`cors-allow-origin` is validated as a whole (spaces removed), then origin by origin (`annotations/cors/main.go`): an origin that is not `scheme://host[:port]`, `null` or `*` is skipped; a value that fails the whole check means `*`. The translation reads it the same way.";
    NginxCorsOriginUnsupported = "ingress-nginx/cors-origin-unsupported", Warning,
        "An origin ingress-nginx allowed (`null`, a non-http scheme) cannot be named in Gateway API's CORS filter and is dropped.",
        "Gateway API's CORS origins are `http(s)://host[:port]` or `*` (the CRD's `CORSOrigin` pattern); `null` (sandboxed frames, `file:` pages) and other schemes (`chrome-extension://…`) that ingress-nginx allowed are dropped, so those origins no longer get CORS headers. The rest of the filter and the route are kept.";
    NginxCorsWithoutEnable = "ingress-nginx/cors-without-enable", Info,
        "`cors-*` without `enable-cors: \"true\"` had no effect and is not translated.",
        "`cors-*` without `enable-cors: \"true\"` had no effect and is not translated.";
    NginxCustomHeaders = "ingress-nginx/custom-headers", Warning,
        "`nginx.ingress.kubernetes.io/custom-headers` is not translated: response headers from a ConfigMap are not translated (use a ResponseHeaderModifier filter).",
        "`nginx.ingress.kubernetes.io/custom-headers` is not translated: response headers from a ConfigMap are not translated (use a ResponseHeaderModifier filter).";
    NginxCustomHttpErrors = "ingress-nginx/custom-http-errors", Warning,
        "`nginx.ingress.kubernetes.io/custom-http-errors` is not translated: custom error pages have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/custom-http-errors` is not translated: custom error pages have no Gateway API equivalent.";
    NginxDefaultBackend = "ingress-nginx/default-backend", Warning,
        "`nginx.ingress.kubernetes.io/default-backend` is not translated: an error-page default backend has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/default-backend` is not translated: an error-page default backend has no Gateway API equivalent.";
    NginxEnableAccessLog = "ingress-nginx/enable-access-log", Info,
        "`nginx.ingress.kubernetes.io/enable-access-log` is not translated: access logging is configured on the implementation, not on routes.",
        "`nginx.ingress.kubernetes.io/enable-access-log` is not translated: access logging is configured on the implementation, not on routes.";
    NginxEnableModsecurity = "ingress-nginx/enable-modsecurity", Error,
        "`nginx.ingress.kubernetes.io/enable-modsecurity` is not translated: the WAF has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/enable-modsecurity` is not translated: the WAF has no Gateway API equivalent.";
    NginxEnableOpentelemetry = "ingress-nginx/enable-opentelemetry", Info,
        "`nginx.ingress.kubernetes.io/enable-opentelemetry` is not translated: tracing is configured on the implementation, not on routes.",
        "`nginx.ingress.kubernetes.io/enable-opentelemetry` is not translated: tracing is configured on the implementation, not on routes.";
    NginxEnableOpentracing = "ingress-nginx/enable-opentracing", Info,
        "`nginx.ingress.kubernetes.io/enable-opentracing` is not translated: tracing is configured on the implementation, not on routes.",
        "`nginx.ingress.kubernetes.io/enable-opentracing` is not translated: tracing is configured on the implementation, not on routes.";
    NginxEnableOwaspCoreRules = "ingress-nginx/enable-owasp-core-rules", Error,
        "`nginx.ingress.kubernetes.io/enable-owasp-core-rules` is not translated: the WAF has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/enable-owasp-core-rules` is not translated: the WAF has no Gateway API equivalent.";
    NginxFastcgiIndex = "ingress-nginx/fastcgi-index", Error,
        "`nginx.ingress.kubernetes.io/fastcgi-index` is not translated: FastCGI backends have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/fastcgi-index` is not translated: FastCGI backends have no Gateway API equivalent.";
    NginxFastcgiParamsConfigmap = "ingress-nginx/fastcgi-params-configmap", Error,
        "`nginx.ingress.kubernetes.io/fastcgi-params-configmap` is not translated: FastCGI backends have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/fastcgi-params-configmap` is not translated: FastCGI backends have no Gateway API equivalent.";
    NginxFromToWwwRedirect = "ingress-nginx/from-to-www-redirect", Warning,
        "`nginx.ingress.kubernetes.io/from-to-www-redirect` is not translated: the www redirect needs an extra host and listener.",
        "`nginx.ingress.kubernetes.io/from-to-www-redirect` is not translated: the www redirect needs an extra host and listener; not translated.";
    NginxGlobalRateLimit = "ingress-nginx/global-rate-limit", Error,
        "`nginx.ingress.kubernetes.io/global-rate-limit` is not translated: rate limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/global-rate-limit` is not translated: rate limits have no Gateway API equivalent.";
    NginxGrpcFilters = "ingress-nginx/grpc-filters", Warning,
        "Redirects, rewrites, CORS and timeouts are not available on GRPCRoute.",
        "Redirects, rewrites, CORS and timeouts are not available on GRPCRoute; not translated for that host.";
    NginxGrpcPath = "ingress-nginx/grpc-path", Warning,
        "A gRPC path that is neither `/` nor `/package.Service[/Method]`: the GRPCRoute rule matches every method.",
        "A gRPC path that is neither `/` nor `/package.Service[/Method]`: the GRPCRoute rule matches every method.";
    NginxHttp2PushPreload = "ingress-nginx/http2-push-preload", Info,
        "`nginx.ingress.kubernetes.io/http2-push-preload` is not translated: HTTP/2 push is obsolete and has no equivalent.",
        "`nginx.ingress.kubernetes.io/http2-push-preload` is not translated: HTTP/2 push is obsolete and has no equivalent.";
    NginxIgnoredBySslPassthrough = "ingress-nginx/ignored-by-ssl-passthrough", Info,
        "With `ssl-passthrough`, every other annotation of the Ingress has no effect (in nginx too).",
        "With `ssl-passthrough`, every other annotation of the Ingress has no effect (in nginx too).";
    NginxIngressRejected = "ingress-nginx/ingress-rejected", Warning,
        "An annotation value fails ingress-nginx's validation, so the controller rejected the whole Ingress; nothing is translated.",
        "With annotation validation on (the default), an invalid value of an annotation whose parser passes the error on (`ssl-passthrough`, the redirect annotations: a code that is not a number, a URL with `%`, `#`, `+`, `@` or `$`) makes `annotations.go` `Extract` fail and `store.go` drop the Ingress: none of its paths was served. The translation serves none either; fix the annotation if the Ingress was meant to work.";
    NginxLimitBurstMultiplier = "ingress-nginx/limit-burst-multiplier", Error,
        "`nginx.ingress.kubernetes.io/limit-burst-multiplier` is not translated: rate limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/limit-burst-multiplier` is not translated: rate limits have no Gateway API equivalent.";
    NginxLimitConnections = "ingress-nginx/limit-connections", Error,
        "`nginx.ingress.kubernetes.io/limit-connections` is not translated: connection limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/limit-connections` is not translated: connection limits have no Gateway API equivalent.";
    NginxLimitRate = "ingress-nginx/limit-rate", Warning,
        "`nginx.ingress.kubernetes.io/limit-rate` is not translated: bandwidth limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/limit-rate` is not translated: bandwidth limits have no Gateway API equivalent.";
    NginxLimitRateAfter = "ingress-nginx/limit-rate-after", Warning,
        "`nginx.ingress.kubernetes.io/limit-rate-after` is not translated: bandwidth limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/limit-rate-after` is not translated: bandwidth limits have no Gateway API equivalent.";
    NginxLimitRpm = "ingress-nginx/limit-rpm", Error,
        "`nginx.ingress.kubernetes.io/limit-rpm` is not translated: rate limits have no Gateway API equivalent (implementation policies).",
        "`nginx.ingress.kubernetes.io/limit-rpm` is not translated: rate limits have no Gateway API equivalent (implementation policies).";
    NginxLimitRps = "ingress-nginx/limit-rps", Error,
        "`nginx.ingress.kubernetes.io/limit-rps` is not translated: rate limits have no Gateway API equivalent (implementation policies).",
        "`nginx.ingress.kubernetes.io/limit-rps` is not translated: rate limits have no Gateway API equivalent (implementation policies).";
    NginxLimitWhitelist = "ingress-nginx/limit-whitelist", Error,
        "`nginx.ingress.kubernetes.io/limit-whitelist` is not translated: rate limits have no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/limit-whitelist` is not translated: rate limits have no Gateway API equivalent.";
    NginxLoadBalance = "ingress-nginx/load-balance", Warning,
        "`nginx.ingress.kubernetes.io/load-balance` is not translated: the load-balancing algorithm has no Gateway API equivalent (Istio DestinationRule loadBalancer).",
        "`nginx.ingress.kubernetes.io/load-balance` is not translated: the load-balancing algorithm has no Gateway API equivalent (Istio DestinationRule loadBalancer).";
    NginxMirrorHost = "ingress-nginx/mirror-host", Warning,
        "`nginx.ingress.kubernetes.io/mirror-host` is not translated: request mirroring is not translated.",
        "`nginx.ingress.kubernetes.io/mirror-host` is not translated: request mirroring is not translated.";
    NginxMirrorRequestBody = "ingress-nginx/mirror-request-body", Warning,
        "`nginx.ingress.kubernetes.io/mirror-request-body` is not translated: request mirroring is not translated.",
        "`nginx.ingress.kubernetes.io/mirror-request-body` is not translated: request mirroring is not translated.";
    NginxMirrorTarget = "ingress-nginx/mirror-target", Warning,
        "`nginx.ingress.kubernetes.io/mirror-target` is not translated: request mirroring to a URL is not translated (RequestMirror needs a Service backendRef).",
        "`nginx.ingress.kubernetes.io/mirror-target` is not translated: request mirroring to a URL is not translated (RequestMirror needs a Service backendRef).";
    NginxModsecuritySnippet = "ingress-nginx/modsecurity-snippet", Error,
        "`nginx.ingress.kubernetes.io/modsecurity-snippet` is not translated: the WAF has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/modsecurity-snippet` is not translated: the WAF has no Gateway API equivalent.";
    NginxModsecurityTransactionId = "ingress-nginx/modsecurity-transaction-id", Error,
        "`nginx.ingress.kubernetes.io/modsecurity-transaction-id` is not translated: the WAF has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/modsecurity-transaction-id` is not translated: the WAF has no Gateway API equivalent.";
    NginxOpentelemetryTrustIncomingSpan = "ingress-nginx/opentelemetry-trust-incoming-span", Info,
        "`nginx.ingress.kubernetes.io/opentelemetry-trust-incoming-span` is not translated: tracing is configured on the implementation, not on routes.",
        "`nginx.ingress.kubernetes.io/opentelemetry-trust-incoming-span` is not translated: tracing is configured on the implementation, not on routes.";
    NginxPcreOnlyRegex = "ingress-nginx/pcre-only-regex", Error,
        "A regex only PCRE accepts (lookaround, backreferences): Gateway API implementations use RE2-style engines, so the rule is not translated.",
        "ingress-nginx matched paths and `canary-by-header-pattern` with PCRE; Envoy and Istio accept only RE2 syntax, which has no lookaround, backreferences or possessive quantifiers. The rule or header canary is not translated (an implementation would reject the route); rewrite the pattern without those features.";
    NginxPrefixTrailingSlash = "ingress-nginx/prefix-trailing-slash", Warning,
        "A Prefix path ending in `/` did not match the path without it in ingress-nginx; PathPrefix does.",
        "A Prefix path ending in `/` (`/api/`) is the nginx location `/api/`, which does not match `/api` (`location.go` adds only `= /api/`); Gateway API's PathPrefix ignores a trailing slash, so `/api` now reaches this backend instead of falling through to another location. Add an Exact `/api` path elsewhere, or accept it.";
    NginxPreserveTrailingSlash = "ingress-nginx/preserve-trailing-slash", Info,
        "`nginx.ingress.kubernetes.io/preserve-trailing-slash` is not translated: trailing-slash handling of redirects is implementation-defined.",
        "`nginx.ingress.kubernetes.io/preserve-trailing-slash` is not translated: trailing-slash handling of redirects is implementation-defined.";
    NginxProxyBodySize = "ingress-nginx/proxy-body-size", Warning,
        "`nginx.ingress.kubernetes.io/proxy-body-size` is not translated: request body size limits have no Gateway API equivalent (implementation policies).",
        "`nginx.ingress.kubernetes.io/proxy-body-size` is not translated: request body size limits have no Gateway API equivalent (implementation policies). nginx answered 413 to a request whose body exceeded it (`client_max_body_size`, 1m by default from the ConfigMap's `proxy-body-size`), spooling large bodies to disk meanwhile. Envoy Gateway's only limit is `requestBuffer` on a BackendTrafficPolicy, which holds each whole request in the proxy's memory up to the limit and turns off WebSocket upgrades and request streaming on the route (`api/v1alpha1/backendtrafficpolicy_types.go`), so it is not written for you: without it, larger bodies reach the backend. Add `requestBuffer.limit` (a Kubernetes quantity: nginx's `8m` is `8Mi`) to the route's BackendTrafficPolicy where the limit protects the backend and the route carries no WebSocket or streaming traffic.";
    NginxProxyBufferSize = "ingress-nginx/proxy-buffer-size", Warning,
        "`nginx.ingress.kubernetes.io/proxy-buffer-size` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-buffer-size` is not translated: nginx buffering has no equivalent.";
    NginxProxyBuffering = "ingress-nginx/proxy-buffering", Warning,
        "`nginx.ingress.kubernetes.io/proxy-buffering` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-buffering` is not translated: nginx buffering has no equivalent.";
    NginxProxyBuffersNumber = "ingress-nginx/proxy-buffers-number", Warning,
        "`nginx.ingress.kubernetes.io/proxy-buffers-number` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-buffers-number` is not translated: nginx buffering has no equivalent.";
    NginxProxyConnectTimeout = "ingress-nginx/proxy-connect-timeout", Warning,
        "`proxy-connect-timeout` has no Gateway API field (implementation backend policies).",
        "`proxy-connect-timeout` has no Gateway API field (implementation backend policies).";
    NginxProxyCookieDomain = "ingress-nginx/proxy-cookie-domain", Warning,
        "`nginx.ingress.kubernetes.io/proxy-cookie-domain` is not translated: rewriting Set-Cookie has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-cookie-domain` is not translated: rewriting Set-Cookie has no equivalent.";
    NginxProxyCookiePath = "ingress-nginx/proxy-cookie-path", Warning,
        "`nginx.ingress.kubernetes.io/proxy-cookie-path` is not translated: rewriting Set-Cookie has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-cookie-path` is not translated: rewriting Set-Cookie has no equivalent.";
    NginxProxyHttpVersion = "ingress-nginx/proxy-http-version", Warning,
        "`nginx.ingress.kubernetes.io/proxy-http-version` is not translated: the upstream HTTP version follows the Service appProtocol in Gateway API.",
        "`nginx.ingress.kubernetes.io/proxy-http-version` is not translated: the upstream HTTP version follows the Service appProtocol in Gateway API.";
    NginxProxyMaxTempFileSize = "ingress-nginx/proxy-max-temp-file-size", Warning,
        "`nginx.ingress.kubernetes.io/proxy-max-temp-file-size` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-max-temp-file-size` is not translated: nginx buffering has no equivalent.";
    NginxProxyNextUpstream = "ingress-nginx/proxy-next-upstream", Warning,
        "`nginx.ingress.kubernetes.io/proxy-next-upstream` is not translated: retries are experimental in Gateway API (HTTPRoute retry).",
        "`nginx.ingress.kubernetes.io/proxy-next-upstream` is not translated: retries are experimental in Gateway API (HTTPRoute retry); not translated.";
    NginxProxyNextUpstreamTimeout = "ingress-nginx/proxy-next-upstream-timeout", Warning,
        "`nginx.ingress.kubernetes.io/proxy-next-upstream-timeout` is not translated: retries are experimental in Gateway API.",
        "`nginx.ingress.kubernetes.io/proxy-next-upstream-timeout` is not translated: retries are experimental in Gateway API; not translated.";
    NginxProxyNextUpstreamTries = "ingress-nginx/proxy-next-upstream-tries", Warning,
        "`nginx.ingress.kubernetes.io/proxy-next-upstream-tries` is not translated: retries are experimental in Gateway API (HTTPRoute retry).",
        "`nginx.ingress.kubernetes.io/proxy-next-upstream-tries` is not translated: retries are experimental in Gateway API (HTTPRoute retry); not translated.";
    NginxProxyRedirectFrom = "ingress-nginx/proxy-redirect-from", Warning,
        "`nginx.ingress.kubernetes.io/proxy-redirect-from` is not translated: rewriting Location headers has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-redirect-from` is not translated: rewriting Location headers has no equivalent.";
    NginxProxyRedirectTo = "ingress-nginx/proxy-redirect-to", Warning,
        "`nginx.ingress.kubernetes.io/proxy-redirect-to` is not translated: rewriting Location headers has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-redirect-to` is not translated: rewriting Location headers has no equivalent.";
    NginxProxyRequestBuffering = "ingress-nginx/proxy-request-buffering", Warning,
        "`nginx.ingress.kubernetes.io/proxy-request-buffering` is not translated: nginx buffering has no equivalent.",
        "`nginx.ingress.kubernetes.io/proxy-request-buffering` is not translated: nginx buffering has no equivalent.";
    NginxProxySslCiphers = "ingress-nginx/proxy-ssl-ciphers", Warning,
        "`nginx.ingress.kubernetes.io/proxy-ssl-ciphers` is not translated: BackendTLSPolicy has no cipher setting.",
        "`nginx.ingress.kubernetes.io/proxy-ssl-ciphers` is not translated: BackendTLSPolicy has no cipher setting.";
    NginxProxySslProtocols = "ingress-nginx/proxy-ssl-protocols", Warning,
        "`nginx.ingress.kubernetes.io/proxy-ssl-protocols` is not translated: BackendTLSPolicy has no protocol-version setting.",
        "`nginx.ingress.kubernetes.io/proxy-ssl-protocols` is not translated: BackendTLSPolicy has no protocol-version setting.";
    NginxProxySslVerifyDepth = "ingress-nginx/proxy-ssl-verify-depth", Warning,
        "`nginx.ingress.kubernetes.io/proxy-ssl-verify-depth` is not translated: BackendTLSPolicy has no chain-depth setting.",
        "`nginx.ingress.kubernetes.io/proxy-ssl-verify-depth` is not translated: BackendTLSPolicy has no chain-depth setting.";
    NginxRedirect = "ingress-nginx/redirect", Info,
        "`permanent-redirect` / `temporal-redirect`: every rule becomes a `RequestRedirect` (scheme, hostname, port, `ReplaceFullPath`).",
        "`permanent-redirect` / `temporal-redirect`: every rule becomes a `RequestRedirect` (scheme, hostname, port, `ReplaceFullPath`); temporal wins, as in nginx.";
    NginxRedirectCode = "ingress-nginx/redirect-code", Warning,
        "ingress-nginx answered a status RequestRedirect cannot (300, 304, 305, 306).",
        "ingress-nginx answered a status RequestRedirect cannot (300, 304, 305, 306: nginx sends the URL as the body, not a redirect); the default (301 permanent, 302 temporal) is used.";
    NginxRedirectCodeOutOfRange = "ingress-nginx/redirect-code-out-of-range", Info,
        "The redirect code is outside what ingress-nginx accepts, so it used its default; so does the translation.",
        "The redirect code is outside what ingress-nginx accepts (300–307 temporal, 300–308 permanent), so it used its default (302, 301); so does the translation (`annotations/redirect/redirect.go` `Parse`).";
    NginxRedirectIgnored = "ingress-nginx/redirect-ignored", Info,
        "ingress-nginx rejected the redirect annotations and redirected nothing; nothing is translated.",
        "ingress-nginx rejected the redirect annotations and redirected nothing (`temporal-redirect` without an http(s) scheme: `redirect.go` `isValidURL`, a parse error that drops every redirect annotation of the Ingress but keeps the Ingress); requests reach the backends, before and after. A value that fails annotation validation rejects the whole Ingress instead (`ingress-nginx/ingress-rejected`).";
    NginxRedirectQueryDropped = "ingress-nginx/redirect-query-dropped", Warning,
        "The redirect target carries a query string, which `RequestRedirect` cannot set.",
        "The redirect target carries a query string, which `RequestRedirect` cannot set; the query is dropped.";
    NginxRedirectUrlUnsupported = "ingress-nginx/redirect-url-unsupported", Error,
        "The `permanent-redirect`/`temporal-redirect` target cannot be expressed by a `RequestRedirect` (nginx variables, a scheme other than http/https).",
        "The `permanent-redirect`/`temporal-redirect` target cannot be expressed by a `RequestRedirect` (nginx variables, a scheme other than http/https); it is not translated and requests reach the backends.";
    NginxResourceBackendSkipped = "ingress-nginx/resource-backend-skipped", Warning,
        "ingress-nginx skips paths (and a defaultBackend) with a resource backend; they are not translated.",
        "ingress-nginx builds locations only for Service backends (`controller.go` `getBackendServers`, `createServers`): a path with a `resource` backend had no location, so its requests fell through to the next matching location (often `/`). The path is not translated, which keeps that behaviour; route it to a Service if it was meant to work.";
    NginxRewriteTarget = "ingress-nginx/rewrite-target", Info,
        "`rewrite-target` with the strip-prefix idiom `/x(/|$)(.*)` → `/$2` becomes `PathPrefix /x` + `URLRewrite` `ReplacePrefixMatch /`.",
        "`rewrite-target` with the strip-prefix idiom `/x(/|$)(.*)` → `/$2` becomes `PathPrefix /x` + `URLRewrite` `ReplacePrefixMatch /`.";
    NginxRewriteTargetApproximated = "ingress-nginx/rewrite-target-approximated", Warning,
        "A strip-prefix path with an optional slash (`/x/?(.*)`) also matched `/xyz` in nginx; PathPrefix `/x` does not.",
        "The path `/x/?(.*)` with `rewrite-target: /$1` strips `/x` from every path that starts with it, `/xyz` included (rewritten to `/yz`). It is translated as PathPrefix `/x` + ReplacePrefixMatch `/`, which matches `/x` and `/x/…` only: requests such as `/xyz` now reach other rules. Use `/x(/|$)(.*)` if that was the intent.";
    NginxRewriteTargetFullPath = "ingress-nginx/rewrite-target-full-path", Warning,
        "`rewrite-target` without captures (or with captures the path does not have) replaces the whole path, as nginx's rewrite does: `URLRewrite` `ReplaceFullPath`.",
        "`rewrite-target` without captures (or with captures the path does not have) replaces the whole path, as nginx's rewrite does: `URLRewrite` `ReplaceFullPath`. Every request of the path reaches the backend at that one path.";
    NginxRewriteTargetSamePath = "ingress-nginx/rewrite-target-same-path", Info,
        "`rewrite-target` equals the path: nginx rewrites nothing for that path; for a Prefix path, only requests below it are rewritten.",
        "`rewrite-target` equals the path: nginx rewrites nothing for that location. A Prefix path `/api` is split into the locations `/api/` and `= /api` (`location.go` `updateServerLocations`), so `/api/x` is rewritten to `/api` while `/api` is not, and the rewrite turns every path of the host into a case-insensitive regex (`/apix` and `/API/v1` match too). The translation emits both rules: `(?i)/api/.*` with `ReplaceFullPath /api`, and `(?i)/api.*` without.";
    NginxRewriteTargetUnsupported = "ingress-nginx/rewrite-target-unsupported", Error,
        "`rewrite-target` uses regex captures beyond the strip-prefix idiom, or is not a path.",
        "`rewrite-target` uses regex captures beyond the strip-prefix idiom, or is not a path; Gateway API has no regex rewrite, requests reach the backend unrewritten.";
    NginxSatisfy = "ingress-nginx/satisfy", Error,
        "`nginx.ingress.kubernetes.io/satisfy` is not translated: combining authentication methods has no equivalent.",
        "`nginx.ingress.kubernetes.io/satisfy` is not translated: combining authentication methods has no equivalent.";
    NginxServerAlias = "ingress-nginx/server-alias", Warning,
        "`nginx.ingress.kubernetes.io/server-alias` is not translated: extra host names are not added automatically.",
        "`nginx.ingress.kubernetes.io/server-alias` is not translated: extra host names are not added automatically; add them to the route's hostnames if still needed.";
    NginxServerSnippet = "ingress-nginx/server-snippet", Error,
        "`nginx.ingress.kubernetes.io/server-snippet` is not translated: raw nginx configuration cannot be translated.",
        "`nginx.ingress.kubernetes.io/server-snippet` is not translated: raw nginx configuration cannot be translated; review what it did.";
    NginxServiceUpstream = "ingress-nginx/service-upstream", Info,
        "`nginx.ingress.kubernetes.io/service-upstream` is not translated: Gateway implementations choose between endpoints and the Service IP themselves.",
        "`nginx.ingress.kubernetes.io/service-upstream` is not translated: Gateway implementations choose between endpoints and the Service IP themselves.";
    NginxSessionCookieChangeOnFailure = "ingress-nginx/session-cookie-change-on-failure", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-change-on-failure` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-change-on-failure` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieConditionalSamesiteNone = "ingress-nginx/session-cookie-conditional-samesite-none", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-conditional-samesite-none` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-conditional-samesite-none` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieDomain = "ingress-nginx/session-cookie-domain", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-domain` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-domain` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieExpires = "ingress-nginx/session-cookie-expires", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-expires` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-expires` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieMaxAge = "ingress-nginx/session-cookie-max-age", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-max-age` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-max-age` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieName = "ingress-nginx/session-cookie-name", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-name` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-name` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookiePath = "ingress-nginx/session-cookie-path", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-path` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-path` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieSamesite = "ingress-nginx/session-cookie-samesite", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-samesite` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-samesite` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSessionCookieSecure = "ingress-nginx/session-cookie-secure", Warning,
        "`nginx.ingress.kubernetes.io/session-cookie-secure` is not translated: session affinity cookie.",
        "`nginx.ingress.kubernetes.io/session-cookie-secure` is not translated: session affinity cookie; not translated (see affinity).";
    NginxSslCiphers = "ingress-nginx/ssl-ciphers", Warning,
        "`nginx.ingress.kubernetes.io/ssl-ciphers` is not translated: TLS ciphers are a Gateway listener setting (tls.options, implementation-specific).",
        "`nginx.ingress.kubernetes.io/ssl-ciphers` is not translated: TLS ciphers are a Gateway listener setting (tls.options, implementation-specific).";
    NginxSslPassthrough = "ingress-nginx/ssl-passthrough", Info,
        "`ssl-passthrough`: each host becomes a TLSRoute on a TLS listener in `Passthrough` mode, to the backend of its `/` path.",
        "`ssl-passthrough`: each host becomes a TLSRoute on a TLS listener in `Passthrough` mode, to the backend of its `/` path.";
    NginxSslPassthroughNoHost = "ingress-nginx/ssl-passthrough-no-host", Error,
        "Passthrough routes by SNI.",
        "Passthrough routes by SNI; a rule without a host cannot be translated.";
    NginxSslPassthroughPlainHttp = "ingress-nginx/ssl-passthrough-plain-http", Warning,
        "A passthrough Ingress's paths were still served on plain HTTP by ingress-nginx; no route is written for that.",
        "`ssl-passthrough` diverts only port 443: on plain HTTP ingress-nginx still served the Ingress's paths, proxying to the backend over HTTPS (`template.go` `buildProxyPass` with an SSLPassthrough upstream). An HTTPRoute to that backend would need a BackendTLSPolicy naming its CA, which the repository does not give; no route is written, so plain HTTP to those paths is no longer answered.";
    NginxSslPassthroughPaths = "ingress-nginx/ssl-passthrough-paths", Warning,
        "Passthrough cannot route by path.",
        "Passthrough cannot route by path; only the backend of `/` (or the first path) is kept.";
    NginxSslPreferServerCiphers = "ingress-nginx/ssl-prefer-server-ciphers", Warning,
        "`nginx.ingress.kubernetes.io/ssl-prefer-server-ciphers` is not translated: TLS cipher preference is a Gateway listener setting.",
        "`nginx.ingress.kubernetes.io/ssl-prefer-server-ciphers` is not translated: TLS cipher preference is a Gateway listener setting.";
    NginxSslRedirect = "ingress-nginx/ssl-redirect", Info,
        "The Ingress redirects HTTP to HTTPS (`force-ssl-redirect`, or ingress-nginx's default for TLS hosts unless `ssl-redirect: \"false\"`): the route attaches to the HTTPS listener and a `<route>-ssl-redirect` route on the HTTP listener answers 308.",
        "The Ingress redirects HTTP to HTTPS (`force-ssl-redirect`, or ingress-nginx's default for TLS hosts unless `ssl-redirect: \"false\"`): the route attaches to the HTTPS listener and a `<route>-ssl-redirect` route on the HTTP listener answers 308. One difference remains: ingress-nginx drops a trailing `/` from the redirect's path unless `preserve-trailing-slash` is set (`lua_ingress.lua` `rewrite`), Gateway API keeps the path as sent, so `http://host/api/` now redirects to `https://host/api/` instead of `https://host/api`; the equivalence check reports those probes as explained by this note.";
    NginxSslRedirectNoHttps = "ingress-nginx/ssl-redirect-no-https", Warning,
        "The Ingress redirects to HTTPS but no HTTPS listener serves the host.",
        "The Ingress redirects to HTTPS but no HTTPS listener serves the host; the route stays on HTTP without a redirect.";
    NginxStreamSnippet = "ingress-nginx/stream-snippet", Error,
        "`nginx.ingress.kubernetes.io/stream-snippet` is not translated: raw nginx configuration cannot be translated.",
        "`nginx.ingress.kubernetes.io/stream-snippet` is not translated: raw nginx configuration cannot be translated; review what it did.";
    NginxTimeout = "ingress-nginx/timeout", Error,
        "A timeout annotation is not a number of seconds.",
        "A timeout annotation is not a number of seconds; not translated.";
    NginxTimeoutApproximate = "ingress-nginx/timeout-approximate", Warning,
        "`proxy-read-timeout` / `proxy-send-timeout` → `timeouts.request` (the longer one): nginx limits the idle time between reads/writes, Gateway API the whole request.",
        "`proxy-read-timeout` / `proxy-send-timeout` → `timeouts.request` (the longer one): nginx limits the idle time between reads/writes, Gateway API the whole request.";
    NginxUnsupportedAnnotation = "ingress-nginx/unsupported-annotation", Warning,
        "An `nginx.ingress.kubernetes.io/*` annotation gateway-migrate has no mapping for (not one of the annotations it translates or knows to be untranslatable): review what it did and port it by hand.",
        "An `nginx.ingress.kubernetes.io/*` annotation gateway-migrate has no mapping for (not one of the annotations it translates or knows to be untranslatable): review what it did and port it by hand.";
    NginxUpstreamHashBy = "ingress-nginx/upstream-hash-by", Warning,
        "`nginx.ingress.kubernetes.io/upstream-hash-by` is not translated: consistent hashing has no Gateway API equivalent (Istio DestinationRule consistentHash).",
        "`nginx.ingress.kubernetes.io/upstream-hash-by` is not translated: consistent hashing has no Gateway API equivalent (Istio DestinationRule consistentHash).";
    NginxUpstreamHashBySubset = "ingress-nginx/upstream-hash-by-subset", Warning,
        "`nginx.ingress.kubernetes.io/upstream-hash-by-subset` is not translated: consistent hashing has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/upstream-hash-by-subset` is not translated: consistent hashing has no Gateway API equivalent.";
    NginxUpstreamHashBySubsetSize = "ingress-nginx/upstream-hash-by-subset-size", Warning,
        "`nginx.ingress.kubernetes.io/upstream-hash-by-subset-size` is not translated: consistent hashing has no Gateway API equivalent.",
        "`nginx.ingress.kubernetes.io/upstream-hash-by-subset-size` is not translated: consistent hashing has no Gateway API equivalent.";
    NginxUpstreamVhost = "ingress-nginx/upstream-vhost", Info,
        "`upstream-vhost` becomes `URLRewrite.hostname` on every rule.",
        "`upstream-vhost` becomes `URLRewrite.hostname` on every rule.";
    NginxUpstreamVhostUnsupported = "ingress-nginx/upstream-vhost-unsupported", Error,
        "`upstream-vhost` with nginx variables or a port has no `URLRewrite` hostname equivalent.",
        "`upstream-vhost` with nginx variables or a port has no `URLRewrite` hostname equivalent; not translated.";
    NginxSslRedirectFromOtherIngress = "ingress-nginx/ssl-redirect-from-other-ingress", Info,
        "Another Ingress of the host gives it a certificate, so ingress-nginx redirected this Ingress's plain-HTTP requests too; so does the translation.",
        "ingress-nginx decides HTTPS redirects per location from the location's own Ingress (`ssl-redirect`, default true) whenever the host has a certificate from any Ingress of the class (`lua_ingress.lua` `redirect_to_https`): an Ingress without a `tls` section is redirected because another one has TLS for the host. The translation redirects it the same way; `ssl-redirect: \"false\"` on this Ingress keeps its paths on plain HTTP.";
    NginxSslPassthroughHostWide = "ingress-nginx/ssl-passthrough-host-wide", Warning,
        "Another Ingress of the host uses `ssl-passthrough`: this Ingress's paths were never served over HTTPS and get no HTTPS listener.",
        "`ssl-passthrough` hands the host's whole TLS stream to one backend (nginx's stream SNI map), so no Ingress of that host was served over HTTPS by nginx; the other Ingresses' paths get no HTTPS listener (which would conflict with the Passthrough listener for the same host and port) and stay on plain HTTP, as before.";
    NginxUseRegex = "ingress-nginx/use-regex", Warning,
        "With `use-regex` (or `rewrite-target`) nginx paths are case-insensitive regexes anchored at the start: `RegularExpression (?i)<path>.*`.",
        "With `use-regex` (or `rewrite-target`) nginx paths are case-insensitive regexes anchored at the start: `RegularExpression (?i)<path>.*`; the dialect is implementation-specific, and nginx applied regex matching to every Ingress of the host.";
    NginxUseRegexHostWide = "ingress-nginx/use-regex-host-wide", Warning,
        "Another Ingress of the same host (and class) uses `use-regex`/`rewrite-target`, so ingress-nginx matched this Ingress's paths as case-insensitive regexes too, and so does the translation.",
        "Another Ingress of the same host (and class) uses `use-regex`/`rewrite-target`, so ingress-nginx matched every path of the host (Exact and Prefix too) as a case-insensitive regex anchored at the start, longest first (`template.go` `enforceRegexModifier`, `buildLocation`); this Ingress's paths become `RegularExpression (?i)<path>.*`, which keeps nginx's length order under Istio's and Envoy Gateway's regex ranking.";
    NginxXForwardedPort = "ingress-nginx/x-forwarded-port", Info,
        "`nginx.ingress.kubernetes.io/x-forwarded-port` is not translated: forwarded headers are set by the implementation.",
        "`nginx.ingress.kubernetes.io/x-forwarded-port` is not translated: forwarded headers are set by the implementation.";
    NginxWildcardCertificate = "ingress-nginx/wildcard-certificate", Info,
        "A host without a certificate of its own was served over HTTPS with another Ingress's wildcard certificate; it gets an HTTPS listener with it.",
        "ingress-nginx looks a host's certificate up by name and then by `*.<rest of the host>` (`certificate.lua` `get_pem_cert_uid`), across every Ingress it reads: a host without `tls` of its own under a wildcard TLS host was served over HTTPS (and redirected from HTTP) with the wildcard's certificate, by its own server. The host gets its own HTTPS listener with that certificate, so its HTTPS keeps reaching its own routes rather than the wildcard's.";
    NginxXForwardedPrefix = "ingress-nginx/x-forwarded-prefix", Info,
        "`x-forwarded-prefix` → `RequestHeaderModifier` setting `X-Forwarded-Prefix` on the rules that rewrite.",
        "`x-forwarded-prefix` → `RequestHeaderModifier` setting `X-Forwarded-Prefix` on the rules that rewrite; ingress-nginx sets it only in locations whose `rewrite-target` differs from the path (`template.go` `buildProxyPass`), so without one it has no effect and nothing is written.";
    // ── Shared translation ──
    GatewayApiCrdsMissing = "gateway-api/crds-missing", Warning,
        "The repository deploys its platform but not the Gateway API CRDs.",
        "The repository deploys its platform (Flux or Argo CD objects, Istio CRDs) but no Gateway API CRD: they must be installed before the generated files are applied, or a Flux Kustomization with `wait: true` fails as a whole on the unknown kinds (and an Argo CD sync fails).";
    GatewayApiReferenceGrant = "gateway-api/reference-grant", Info,
        "A ReferenceGrant was generated because a generated object refers to a Service or Secret in another namespace.",
        "A ReferenceGrant was generated because a generated object refers to a Service or Secret in another namespace; Gateway API requires the grant in the target namespace. Requests are merged into one grant per namespace pair.";
    // ── Validation of generated and repository objects ──
    ValidateCel = "validate/cel", Error,
        "An `x-kubernetes-validations` rule of the CRD is violated.",
        "An `x-kubernetes-validations` rule of the CRD is violated; the message is the CRD's message verbatim (e.g. \"Listener name must be unique within the Gateway\", \"Must have port for Service reference\"). Rules are evaluated as written with the `cel` interpreter; a rule that reads an absent field counts as violated, as in the API server.";
    ValidateCelUnevaluated = "validate/cel-unevaluated", Error,
        "A CEL rule the interpreter could not evaluate (an interpreter gap, never expected: every rule of the emitted kinds has a test).",
        "A CEL rule the interpreter could not evaluate (an interpreter gap, never expected: every rule of the emitted kinds has a test); reported so a gap never passes silently.";
    ValidateExperimentalOnly = "validate/experimental-only", Error,
        "On the standard channel: a field, enum value, kind or version that only the experimental CRDs define (derived by validating against both channels' CRDs, not from a hand-made list), e.g. `spec.rules[].retry`, `TCPRoute v1alpha2`.",
        "On the standard channel: a field, enum value, kind or version that only the experimental CRDs define (derived by validating against both channels' CRDs, not from a hand-made list), e.g. `spec.rules[].retry`, `TCPRoute v1alpha2`.";
    ValidateListenerHostnameConflict = "validate/listener-hostname-conflict", Error,
        "Two listeners of one Gateway on one port, same protocol family (HTTPS and TLS are one family) and same hostname (or both without one).",
        "Two listeners of one Gateway on one port, same protocol family (HTTPS and TLS are one family) and same hostname (or both without one). Names both listeners.";
    ValidateListenerProtocolConflict = "validate/listener-protocol-conflict", Error,
        "Two listeners of one Gateway on one port with incompatible protocols (HTTP vs HTTPS/TLS vs TCP.",
        "Two listeners of one Gateway on one port with incompatible protocols (HTTP vs HTTPS/TLS vs TCP; UDP never conflicts with the TCP-based ones). Names both listeners.";
    ValidateMetadata = "validate/metadata", Error,
        "`metadata.name` missing or not an RFC 1123 subdomain, or `metadata.namespace` not an RFC 1123 label (the CRD schema leaves `metadata` to the API server).",
        "`metadata.name` missing or not an RFC 1123 subdomain, or `metadata.namespace` not an RFC 1123 label (the CRD schema leaves `metadata` to the API server).";
    ValidateSchema = "validate/schema", Error,
        "The object breaks its CRD version's `openAPIV3Schema` (type, enum, pattern, min/max length or value, min/maxItems, required, format).",
        "The object breaks its CRD version's `openAPIV3Schema` (type, enum, pattern, min/max length or value, min/maxItems, required, format); `rule` names the JSON-schema keyword (`schema/pattern`, ...). Checked after CRD defaulting, as the API server does.";
    ValidateUnknownField = "validate/unknown-field", Error,
        "A field the CRD does not define (strict field validation, the `kubectl apply` default, rejects it.",
        "A field the CRD does not define (strict field validation, the `kubectl apply` default, rejects it; without it the field would be silently dropped).";
    ValidateUnservedVersion = "validate/unserved-version", Error,
        "The `apiVersion`/`kind` is not defined, or defined but not served, by the channel's CRDs (and not by the experimental channel either).",
        "The `apiVersion`/`kind` is not defined, or defined but not served, by the channel's CRDs (and not by the experimental channel either).";
    // ── Predicted attachment (route status) ──
    AttachAccepted = "attach/accepted", Info,
        "The parentRef would be `Accepted=True`.",
        "The parentRef would be `Accepted=True`; lists the listeners that accept the route and the route's `ResolvedRefs`.";
    AttachBackendNotFound = "attach/backend-not-found", Error,
        "`ResolvedRefs=False BackendNotFound`: the backend Service does not exist in a known namespace (or anywhere, with `--strict`).",
        "`ResolvedRefs=False BackendNotFound`: the backend Service does not exist in a known namespace (or anywhere, with `--strict`).";
    AttachBackendTlsPolicyInvalid = "attach/backend-tls-policy-invalid", Error,
        "A BackendTLSPolicy whose CA does not resolve, or that loses to an older policy with the same target: the policy is `Accepted=False` and routes to its Service are `ResolvedRefs=False InvalidBackendTLS`.",
        "A BackendTLSPolicy whose `caCertificateRefs` name a ConfigMap or Secret that does not exist or holds no CA (`ca.crt`, else `tls.crt`, else its only key), or name no supported kind: on every Gateway its routes attach to it is `Accepted=False NoValidCACertificate` with `ResolvedRefs=False InvalidCACertificateRef` (or `InvalidKind`), and every route whose backend uses it is `ResolvedRefs=False InvalidBackendTLS`: Envoy Gateway answers 500 for that backend's share (backendtlspolicy.go getCaCertsFromCARefs, processBackendTLSPolicy). A later policy with an earlier one's targetRef is `Accepted=False Conflicted` and unused. Fix the reference, or remove the duplicate policy.";
    AttachBackendUnknown = "attach/backend-unknown", Warning,
        "The backend (or the ReferenceGrants of its namespace) lies outside the repository.",
        "The backend (or the ReferenceGrants of its namespace) lies outside the repository; whether it resolves cannot be checked.";
    AttachCertificateRefNotPermitted = "attach/certificate-ref-not-permitted", Error,
        "A cross-namespace listener certificate without a ReferenceGrant (from `Gateway` in the Gateway's namespace to that Secret) in a namespace the repository knows: listener `ResolvedRefs=False RefNotPermitted`.",
        "A cross-namespace listener certificate without a ReferenceGrant (from `Gateway` in the Gateway's namespace to that Secret) in a namespace the repository knows: listener `ResolvedRefs=False RefNotPermitted`.";
    AttachCertificateUnknown = "attach/certificate-unknown", Warning,
        "The listener's Secret is not in the repository (Secrets are often managed outside Git), or its namespace's ReferenceGrants are unknown.",
        "The listener's Secret is not in the repository (Secrets are often managed outside Git), or its namespace's ReferenceGrants are unknown.";
    AttachInvalidCertificateRef = "attach/invalid-certificate-ref", Error,
        "A listener certificate that cannot be used: not a core `Secret`, not of type `kubernetes.io/tls`, without `tls.crt`/`tls.key`, unparsable, expired or with a key that does not match: listener `ResolvedRefs=False InvalidCertificateRef` (or `PartiallyInvalidCertificateRef` when others are valid).",
        "A listener `tls.certificateRefs` entry that cannot be used: not a core `Secret`, a Secret not of type `kubernetes.io/tls`, without `tls.crt` and `tls.key`, with a certificate that is not PEM X.509 or is outside its validity window, or with a key that does not belong to the certificate (Envoy Gateway: validate.go validateTerminateModeAndGetTLSSecrets, tls.go parseCertsFromTLSSecretsData). With no valid certificate left the listener is `ResolvedRefs=False InvalidCertificateRef` and not programmed; with some valid ones it is `PartiallyInvalidCertificateRef` and serves those. The Secret's contents are checked offline and never printed.";
    AttachClientValidationInvalid = "attach/client-validation-invalid", Error,
        "The Gateway's client certificate validation (`spec.tls.frontend`) names a CA that does not resolve: the HTTPS listeners it covers are not accepted.",
        "The CA references of `spec.tls.frontend` (its `default` or the `perPort` entry of a listener's port) name a ConfigMap or Secret that does not exist, holds no `ca.crt`, lies in another namespace without a ReferenceGrant from the Gateway, or is of no supported kind. Envoy Gateway then sets the Gateway `ResolvedRefs=False` and every HTTPS listener the validation covers `Accepted=False NoValidCACertificate`, not programmed (listener.go ProcessGatewayTLS, validate.go validateTLSConfiguration): clients reach nothing there, where the intent was to require a client certificate. Fix the reference.";
    AttachInvalidClientCertificateRef = "attach/invalid-client-certificate-ref", Error,
        "The Gateway's `spec.tls.backend.clientCertificateRef` does not resolve: Gateway `ResolvedRefs=False` (`InvalidClientCertificateRef` or `RefNotPermitted`).",
        "The Gateway's `spec.tls.backend.clientCertificateRef` is not a core Secret, is in another namespace without a ReferenceGrant from the Gateway, does not exist, or lacks `tls.crt`/`tls.key`: Gateway `ResolvedRefs=False` (`InvalidClientCertificateRef` or `RefNotPermitted`), and no backend receives the client certificate (Envoy Gateway: listener.go ProcessGatewayTLS). Fix the reference or add the Secret.";
    AttachInvalidRouteKinds = "attach/invalid-route-kinds", Error,
        "A listener's `allowedRoutes.kinds` names a kind its protocol does not carry, or a group other than `gateway.networking.k8s.io`: listener `ResolvedRefs=False InvalidRouteKinds`, not programmed.",
        "A listener's `allowedRoutes.kinds` names a kind its protocol does not carry (HTTP/HTTPS: HTTPRoute, GRPCRoute; TLS: TLSRoute, and TCPRoute unless Passthrough; TCP: TCPRoute; UDP: UDPRoute), or a group other than `gateway.networking.k8s.io`. The listener is `ResolvedRefs=False InvalidRouteKinds` (spec: `ListenerReasonInvalidRouteKinds` in apis/v1/gateway_types.go); Envoy Gateway does not program it (validate.go validateAllowedRoutes), though routes of the valid kinds are still reported `Accepted`. Remove the kinds the protocol cannot carry.";
    AttachInvalidKind = "attach/invalid-kind", Error,
        "`ResolvedRefs=False InvalidKind`: a backend group/kind no implementation of the target resolves (core Service always.",
        "`ResolvedRefs=False InvalidKind`: a backend group/kind no implementation of the target resolves (core Service always; `networking.istio.io/Hostname` for `target: istio`; `gateway.envoyproxy.io/Backend` for `target: envoy-gateway`; `multicluster.x-k8s.io/ServiceImport`).";
    AttachListenerInvalid = "attach/listener-invalid", Error,
        "A listener whose own settings make it invalid: it would not be programmed (`Programmed=False`), so nothing attached to it is served.",
        "A listener whose own settings make it invalid (Envoy Gateway: validate.go validateListenerSpec): `from: Selector` without a selector or with one that does not parse (no namespace is admitted); `tls` on an HTTP, TCP or UDP listener; an HTTPS or TLS listener without `tls`; HTTPS with `mode: Passthrough` (`UnsupportedTLSMode`); a terminating listener without certificateRefs; Passthrough with certificateRefs; a hostname on a TCP or UDP listener. The listener is `Programmed=False` and carries no traffic. Fix the setting the message names.";
    AttachListenerIsolation = "attach/listener-isolation", Warning,
        "Requests for a host go to a more specific listener where the route is not attached.",
        "A route attached to a wildcard (or hostless) listener serves a host that a more specific listener of the same Gateway and port names. Gateway API sends each request to the most specific matching listener (listener isolation, `GatewaySpec.listeners` in apis/v1/gateway_types.go; Istio implements it), so requests for that host never reach this route: 404 unless a route attached there serves them. In Istio the wildcard server's VirtualService served them.";
    AttachListenerNotProgrammed = "attach/listener-not-programmed", Error,
        "The route would be `Accepted`, but every listener it attaches to is not programmed (an invalid or conflicted listener): it serves no traffic.",
        "The route would be `Accepted`: implementations attach routes to a listener whatever its own conditions (Envoy Gateway: route.go processAllowedListenersForParentRefs), but a listener that is invalid or conflicted is `Programmed=False` and leaves the data plane, so the route serves no traffic through it. The listener's own findings say why; fix the listener.";
    AttachListenerUnsupportedProtocol = "attach/listener-unsupported-protocol", Error,
        "A listener protocol the implementation does not support: listener `Accepted=False UnsupportedProtocol`, no route attaches.",
        "A listener protocol the implementation does not support (Envoy Gateway supports HTTP, HTTPS, TLS, TCP and UDP): listener `Accepted=False UnsupportedProtocol` (spec: `ListenerReasonUnsupportedProtocol`), it supports no route kind, so no route attaches. Use a supported protocol.";
    AttachNoMatchingListenerHostname = "attach/no-matching-listener-hostname", Error,
        "`Accepted=False NoMatchingListenerHostname`: no route hostname intersects a selected listener's hostname, after listener isolation (a host another listener on the same port names exactly belongs to that listener).",
        "`Accepted=False NoMatchingListenerHostname`: no route hostname intersects a selected listener's hostname, after listener isolation (a host another listener on the same port names exactly belongs to that listener).";
    AttachNoMatchingParent = "attach/no-matching-parent", Error,
        "`Accepted=False NoMatchingParent`: no listener of the parent has the parentRef's `sectionName`/`port` (or a mesh parent Service does not exist).",
        "`Accepted=False NoMatchingParent`: no listener of the parent has the parentRef's `sectionName`/`port` (or a mesh parent Service does not exist).";
    AttachNoParentRefs = "attach/no-parent-refs", Warning,
        "A route without `parentRefs`: it attaches to no Gateway (and no mesh Service) and serves no traffic.",
        "A route without `parentRefs`: it attaches to no Gateway (and no mesh Service) and serves no traffic.";
    AttachNotAllowedByListeners = "attach/not-allowed-by-listeners", Error,
        "`Accepted=False NotAllowedByListeners`: no selected listener takes this route kind (from its protocol and `allowedRoutes.kinds`) or admits the route's namespace (`allowedRoutes.namespaces`: `Same` default, `All`, `Selector` on the Namespace's labels).",
        "`Accepted=False NotAllowedByListeners`: no selected listener takes this route kind (from its protocol and `allowedRoutes.kinds`) or admits the route's namespace (`allowedRoutes.namespaces`: `Same` default, `All`, `Selector` on the Namespace's labels). ReferenceGrants play no part in route→Gateway attachment.";
    AttachParentNotFound = "attach/parent-not-found", Error,
        "`Accepted=False ParentNotFound`: the parentRef names a Gateway the repository does not define, in a namespace whose other Gateways it does define.",
        "`Accepted=False ParentNotFound`: the parentRef names a Gateway the repository does not define, in a namespace whose other Gateways it does define (so the repository manages that namespace's Gateways and the name is wrong), or anywhere with `--strict`. A Gateway in a namespace the repository holds no Gateway of is `attach/parent-unknown` instead.";
    AttachOverlappingTls = "attach/overlapping-tls", Warning,
        "Two HTTPS listeners on one port whose hostnames or certificates overlap: `OverlappingTLSConfig=True`; HTTP/2 clients may reuse a connection for the other listener's hosts.",
        "Two HTTPS listeners on one port whose hostnames overlap (one without a hostname, equal ones, or `*.x.com` and a name one label below) or whose certificates' DNS names overlap: listener `OverlappingTLSConfig=True` (`OverlappingHostnames` or `OverlappingCertificates`; spec: `ListenerConditionOverlappingTLSConfig`). HTTP/2 connection coalescing can then send a request to the wrong listener (421 or a wrong route); Envoy Gateway falls back to HTTP/1.1 ALPN for overlapping certificates (listener.go checkOverlappingTLSConfig). Use distinct hostnames and certificates.";
    AttachParentUnknown = "attach/parent-unknown", Warning,
        "The parent Gateway (or parent kind, or the Namespace labels a selector needs) is not in the repository: attachment cannot be predicted.",
        "The parent Gateway (or parent kind, or the Namespace labels a selector needs) is not in the repository: attachment cannot be predicted.";
    AttachPortNotFound = "attach/port-not-found", Error,
        "`ResolvedRefs=False`: the backend Service exists but has no such port.",
        "`ResolvedRefs=False`: the backend Service exists but has no such port.";
    AttachRuleUnsupported = "attach/rule-unsupported", Error,
        "With `--target envoy-gateway`: a route rule Envoy Gateway refuses although the CRDs admit it; the rule is dropped (`Accepted=False` when every rule is, else `PartiallyInvalid=True`).",
        "With `--target envoy-gateway`, a route rule Envoy Gateway refuses though the CRDs admit it (filters.go, helpers.go ValidateHTTPRouteFilter, route.go processHTTPRouteRule): an unsupported filter type or ExtensionRef kind, two URLRewrite or RequestRedirect filters, a redirect scheme other than http/https or status other than 301/302, header modifier entries with an empty name, `Host`, a name with `/` or `:`, or an invalid value, a regular expression that does not compile, a mirror together with a redirect (`IncompatibleFilters`), a backendRef filter other than header modifiers and a hostname rewrite (`ResolvedRefs=False UnsupportedRefValue`), a TCPRoute or UDPRoute without exactly one rule (`InvalidRule`). The rule is dropped: requests it matched get 500 or another rule. Rewrite the rule within what the implementation supports.";
    AttachUnsupportedAddress = "attach/unsupported-address", Error,
        "A Gateway `spec.addresses` entry of a type the implementation does not support: Gateway `Accepted=False UnsupportedAddress`.",
        "A Gateway `spec.addresses` entry whose type is neither `IPAddress` nor `Hostname`: Envoy Gateway does not accept the Gateway (`Accepted=False UnsupportedAddress`, translator.go GetRelevantGateways), so none of its listeners is programmed. Use a supported address type.";
    AttachRefNotPermitted = "attach/ref-not-permitted", Error,
        "`ResolvedRefs=False RefNotPermitted`: a cross-namespace backendRef (or mirror backendRef) without a ReferenceGrant in the target namespace allowing this route kind from the route's namespace.",
        "`ResolvedRefs=False RefNotPermitted`: a cross-namespace backendRef (or mirror backendRef) without a ReferenceGrant in the target namespace allowing this route kind from the route's namespace.";
    // ── Planning the edits ──
    PlanInPlaceList = "plan/in-place-list", Info,
        "With `--in-place`, a document that is a `List` is not replaced.",
        "With `--in-place`, a document that is a `List` is not replaced; its objects are written alongside instead.";
    PlanKustomizationNotEdited = "plan/kustomization-not-edited", Error,
        "A kustomization that lists a translated source could not be edited (it could not be read or parsed, or the list has a form the editor keeps as is).",
        "A kustomization that lists a translated source could not be edited (it could not be read or parsed, or the list has a form the editor keeps as is); add the generated file to its `resources:` by hand.";
    PlanKustomizePatch = "plan/kustomize-patch", Info,
        "A file used as a kustomize patch holds partial objects.",
        "A file used as a kustomize patch holds partial objects; it is not translated as a whole object. Translate the object it patches and port the patch by hand.";
    PlanMeshRouteDeployed = "plan/mesh-route-deployed", Warning,
        "Mesh (GAMMA) routes are deployed next to the VirtualServices they replace (`deployMeshRoutes`).",
        "Mesh (GAMMA) routes are deployed next to the VirtualServices they replace (`deployMeshRoutes`); Istio does not support both for the same workload: delete the VirtualServices in the same change.";
    PlanMeshRouteNotDeployed = "plan/mesh-route-not-deployed", Info,
        "Mesh (GAMMA) routes are written but not added to kustomization `resources:`: Istio does not support a VirtualService and an HTTPRoute for the same workload.",
        "Mesh (GAMMA) routes are written but not added to kustomization `resources:`: Istio does not support a VirtualService and an HTTPRoute for the same workload. Add the file when you delete the VirtualServices (or set `deployMeshRoutes`).";
    PlanMeshRouteUnlisted = "plan/mesh-route-unlisted", Warning,
        "Mesh (GAMMA) routes are written to a file no kustomization lists, so a directory-based Argo CD or Flux app will apply it on merge next to the VirtualServices it replaces, which Istio does not support: exclude the file or delete the VirtualServices in the same change.",
        "Mesh (GAMMA) routes are written to a file no kustomization lists, so a directory-based Argo CD or Flux app will apply it on merge next to the VirtualServices it replaces, which Istio does not support: exclude the file or delete the VirtualServices in the same change.";
    PlanOutputExists = "plan/output-exists", Error,
        "The output file exists and was not generated by gateway-migrate (no header), so it is left alone and the translated objects are not written: move the file or set `outputSuffix`.",
        "The output file exists and was not generated by gateway-migrate (no header), so it is left alone and the translated objects are not written: move the file or set `outputSuffix`.";
    PlanUnreadableSource = "plan/unreadable-source", Error,
        "A source file could not be read again to plan its output (hash header or in-place replacement).",
        "A source file could not be read again to plan its output (hash header or in-place replacement); nothing is written for it.";
    IstioTemplatedHost = "istio/templated-host", Warning,
        "A host is a template (`$(VAR)`, `${VAR}`, `{{ … }}`, a placeholder word): it is kept as written, and the substitution must reach the generated fields too.",
        "The host (of a VirtualService, a Gateway server or a destination's cluster domain) is filled in before the object reaches the cluster: by kustomize `vars` (only in the fields its `varReference` configuration lists), by a `replacements` entry naming the Istio object, by Flux `postBuild` substitution (every field) or by a script. Lowercasing or expanding it would break the substitution, so route and listener hostnames keep it as written and are validated with a stand-in name; a destination `<name>.<namespace>.svc.<templated domain>` is the Service it names. Add the generated fields to the substitution (a `varReference` or `replacements` target for `HTTPRoute` `spec/hostnames` and `Gateway` `spec/listeners/hostname`); rendered kustomize builds are translated with the substituted value and patched per build.";
    IstioServiceDomain = "istio/service-domain", Info,
        "A destination `<name>.<namespace>.svc.<domain>` names a Service under a cluster domain other than the configured `clusterDomain`: it is referenced as that Service.",
        "Only a cluster's DNS serves `<name>.<namespace>.svc.<domain>` names, so such a destination is a Service of the cluster, under a cluster domain other than `clusterDomain` (default `cluster.local`). The generated backendRef names the Service, which Gateway API resolves without a domain. Istio matches the host against its own domain suffix: if the cluster's domain is the one written, set `clusterDomain` to it so that the rest of the translation (short names, DestinationRules) agrees; if not, the old route matched no Service and the new one does.";
    IstioNameCollision = "istio/name-collision", Warning,
        "Two sources generate an object of the same kind and name in one namespace: the later one gets a `-2` suffix.",
        "Two VirtualServices (or DestinationRules) generate objects of the same kind and name in the same namespace, so the later one (in file order) is renamed with a counter suffix. Sources that name no namespace are only compared with sources of the same directory, so an unrelated file never renames them. Rename a source if the suffix matters.";
    IngressTemplatedHost = "ingress/templated-host", Warning,
        "An Ingress host is a template (`$(VAR)`, `${VAR}`, `{{ … }}`, a placeholder word): it is kept as written, and the substitution must reach the generated fields too.",
        "The host is filled in before the Ingress reaches the cluster: by kustomize `vars` (only in the fields its `varReference` lists; `Ingress` `spec/rules/host` is built in, HTTPRoute fields are not: kustomize `api/internal/konfig/builtinpluginconsts/varreference.go`), by a `replacements` entry naming the Ingress, by Flux `postBuild` substitution (every field), or by a script. Lowercasing it or expanding it would break the substitution, so it is kept as written in the Gateway listener and the route hostnames, and the objects are validated with a stand-in name. Add the generated fields to the substitution (a `varReference` or `replacements` target for `HTTPRoute` `spec/hostnames` and `Gateway` `spec/listeners/hostname`); rendered kustomize builds are translated with the substituted value and patched per build.";
    IngressNameCollision = "ingress/name-collision", Warning,
        "Two Ingresses generate a route of the same name in one namespace: the later one gets a `-2` suffix.",
        "Two Ingresses generate routes of the same kind and name in the same namespace (same Ingress name and host), so the later one (in file order) is renamed with a counter suffix. Ingresses that name no namespace are only compared with Ingresses of the same directory, so an unrelated file never renames them.";
    // ── Deploy units ──
    DeployGeneratorUnknown = "deploy/generator-unknown", Info,
        "An Argo CD ApplicationSet whose Applications cannot be known from the repository: the directories they deploy are not units of their own.",
        "An Argo CD ApplicationSet's Applications come from its generators. A list generator's elements and a git directories generator's globs are read from the repository and expanded (`applicationset/generators/list.go`, `git.go`); other generators (clusters and SCM providers, whose parameters come from outside the tree; git files, matrix, merge, plugins, a `pathParamPrefix`) are not expanded, and a template expression the generators do not give cannot be rendered. The directories those Applications deploy are then placed by their kustomizations or as directories applied by hand, not by the ApplicationSet's destination. Use a list or git directories generator, or check placement by hand (`docs/deploy-units.md`).";
    DeployComponentUnbuilt = "deploy/component-unbuilt", Warning,
        "A kustomize Component patches an Ingress or Istio object the migration replaces, and no build of the repository includes it: the generated objects miss its change.",
        "Components that builds of the repository include are rendered with them, and their effect on the generated objects becomes per-build patches. A Component no build includes (a library repository's optional piece that users add to their own overlays) cannot be rendered here. It still patches the Ingress or Istio object (`patches` with a `target`, inline patches, patch files), which the migration replaces: a build that includes it later patches an object it no longer deploys, and the generated route misses the change (its hostnames, TLS, annotations). The message names the Component and the generated objects. Port the patch to them (a patch on the HTTPRoute or Gateway in the Component), or add a build that includes the Component.";
    DeployLeftOut = "deploy/left-out", Info,
        "A GitOps object's file filter leaves this file out of the directory it deploys, and nothing else deploys it: it is not translated.",
        "Argo CD directory sources skip files `directory.exclude` matches, files `directory.include` does not match, and files holding `+argocd:skip-file-rendering`; Flux leaves out what `.sourceignore` (and its defaults) match. Such a file never reaches the cluster, so its objects are not migrated: a translation written beside it would be deployed by the same directory (its name differs from the excluded one) and add routes the cluster never had. Its objects also take no part in translating the deployed files (a left-out Ingress does not win a host's path). If the file is applied another way, deploy it from a unit of its own and run again.";
    DeployOptionsDiffer = "deploy/options-differ", Warning,
        "GitOps objects deploy one kustomize build with different additions (name prefix or suffix, namespace, components, patches): it is rendered as its kustomization says, which none of them deploys.",
        "Flux `spec.namePrefix`, `components`, `patches` and Argo CD `source.kustomize` options change what a build renders: names, hosts, namespaces. When every GitOps object deploying a build adds the same, the build is rendered with it. When they differ (an Application per cluster, each with its own `namePrefix`), there is no one rendering to translate: the build is rendered as its kustomization says, and the generated routes' names, parents and backends may not match what each deployment renders. The message names the objects. Give each deployment its own overlay with the addition in its kustomization, so each is a build of its own.";
    DeployOutputLeftOut = "deploy/output-left-out", Warning,
        "A GitOps object deploys a translated source but its file filter leaves the generated file out: the new routes would not reach the cluster.",
        "An Argo CD directory source reads only the files `directory.include` admits and `directory.exclude` does not match; Flux's source-controller leaves out what `.sourceignore` files match. The generated file is written next to its source, under another name (`<name>.gateway-api.yaml`), so a filter written for the source's name can leave it out while the source is still deployed: after cut-over the old objects are removed and nothing replaces them. The message names the generated file and the GitOps object. Widen the filter (for example `include: '{ingress.yaml,ingress.gateway-api.yaml}'`), or move the generated file where the object deploys it.\n\nExample: an Application with `directory.include: ingress.yaml` deploys `apps/api/ingress.yaml`; `apps/api/ingress.gateway-api.yaml` is not included.";
    DeploySharedGateway = "deploy/shared-gateway", Warning,
        "Routes of several deploy units attach to one generated Gateway that some of them do not deploy: each such unit is named, with the ordering its GitOps tool needs.",
        "Ingress migration creates one Gateway per IngressClass. The routes of every Ingress of the class attach to it, but the units (kustomize builds, Argo CD Applications, Flux Kustomizations, directories) that deploy those routes do not all deploy the Gateway. Where the repository has the class's infrastructure (its `IngressClass` object, else the one ingress-nginx controller it installs), the Gateway is written next to it, so it lives with the platform rather than in the first application; otherwise it stays in the first application and the message says to move it to a unit of its own. Either way, a dependent unit deployed before the Gateway's unit (or to a cluster without it) has routes without a parent, and deleting the Gateway's unit takes every dependent's traffic with it. Order the Gateway's unit first: Flux `dependsOn` on each dependent Kustomization; Argo CD a lower `argocd.argoproj.io/sync-wave` on its Application within the parent app. `docs/deploy-units.md`.";
    // ── Target implementations ──
    TargetAccessPolicy = "target/access-policy", Info,
        "Access controls of the source written as the target implementation's policy resource.",
        "The source restricts who may reach these routes (client address allow- or deny-lists, basic or external authentication, from annotations or the controller's ConfigMap). The Standard Gateway API has no field for that, so the check is written as the policy resource of the `--target` implementation, attached to the generated routes (Envoy Gateway: a SecurityPolicy with `targetRefs` naming the routes; Istio: an AuthorizationPolicy with `targetRefs` naming the Gateway, scoped to the routes' hosts and paths). The policy is validated against the implementation's pinned CRDs like every generated object, and the behaviour model of the new side reads it. See `docs/targets.md` for what each target carries.";
    TargetAccessFailsClosed = "target/access-fails-closed", Error,
        "An access control the target cannot carry: the routes are written without backends (500) instead of open.",
        "The source restricts who may reach these routes, but the `--target` implementation has no resource for that control (Istio: basic, digest or external authentication; the generic target: any policy), or the source's value cannot be carried over (an authentication URL that is not a cluster Service over plain HTTP for Envoy Gateway, a value the source's controller could not read). Publishing the routes would open them to everyone, so their rules are written without backends and mirrors: every request gets a 500 (Gateway API: a rule without backends). Choose a target that carries the control (`docs/targets.md`), or put the check in front of the service yourself, then give the rules their backends back.";
    TargetBasicAuthSecret = "target/basic-auth-secret", Warning,
        "Envoy Gateway reads basic-auth users from key `.htpasswd` with SHA hashes only: the Secret needs that key before cut-over.",
        "Envoy Gateway's `basicAuth.users` names a Secret whose key `.htpasswd` holds `user:{SHA}hash` lines (`api/v1alpha1/basic_auth_types.go`; other hash schemes are refused by `validateHtpasswdFormat` in `internal/gatewayapi/securitypolicy.go`). ingress-nginx read the users from key `auth` (an htpasswd file with any crypt hash) or one key per user (`auth-secret-type: auth-map`). The SecurityPolicy names the same Secret: add a `.htpasswd` key with SHA hashes (`htpasswd -s`) before cutting over. Until the key is there the policy is invalid and Envoy Gateway answers 500 on its routes (it never lets a request through unchecked).";
    TargetExtAuthRequest = "target/ext-auth-request", Warning,
        "Envoy Gateway's external authorization sends the service fewer headers than ingress-nginx did: check what the service reads.",
        "ingress-nginx's `auth-url` subrequest carried every request header, the auth URL's host as `Host`, and `X-Original-URL`, `X-Original-Method`, `X-Auth-Request-Redirect`, `X-Forwarded-For` (`nginx.tmpl`, the auth location). Envoy Gateway's HTTP external authorization sends only Host, Method, Path, Content-Length and Authorization plus what `headersToExtAuth` names (`api/v1alpha1/ext_auth_types.go`); the SecurityPolicy adds `cookie`. A service that reads other headers answers differently (usually: refuses). Add the names it reads to `extAuth.headersToExtAuth`.";
    TargetAccessScope = "target/access-scope", Warning,
        "The written policy covers more requests than the source's access control: refused clients are refused there too.",
        "Istio's AuthorizationPolicy attaches to a whole Gateway and is scoped by host and path (`to.operation`). Where a route's requests cannot be named that way (a wildcard host, which a port in the Host header would slip past; a route without hostname; a regular expression or gRPC path) the policy is scoped to the whole host or the whole Gateway. Clients the source refused are still refused; some it let through elsewhere on the Gateway are refused too. Narrow the policy's `to` by hand if that matters, or use Envoy Gateway, whose SecurityPolicy targets the routes themselves.";
    TargetAccessOrder = "target/access-order", Warning,
        "Envoy Gateway checks credentials before the client address: clients outside the list get 401 instead of 403 and can try passwords.",
        "ingress-nginx runs a location's `allow`/`deny` rules before its authentication (`auth_request` and `auth_basic` handlers run after the access module in nginx's access phase), so a client outside the allow-list is refused with 403 whatever it sends. Envoy Gateway orders its HTTP filters with external authorization and basic authentication before the RBAC filter that `authorization` becomes (`internal/xds/translator/httpfilters.go` `newOrderedHTTPFilter`): such a client gets 401 (or the authentication service's answer), its requests reach the authentication service, and a right password is answered 403 where a wrong one gets 401. Nobody outside the list gets through, but they learn more. Envoy Gateway's `EnvoyProxy.spec.filterOrder` can move the RBAC filter first, for every Gateway of that proxy.";
    TargetGatewayClassUnknown = "target/gateway-class-unknown", Warning,
        "A policy was written for a Gateway whose GatewayClass the repository does not define: it holds only if the target serves that class.",
        "An implementation enforces its policies only on the Gateways of the GatewayClasses it serves (Istio: `controllerName` `istio.io/gateway-controller`; Envoy Gateway: `gateway.envoyproxy.io/gatewayclass-controller` by default). The route's Gateway names a class no GatewayClass of the repository defines, so whether the `--target` implementation serves it cannot be checked here; when another implementation does, nobody applies the policy and the route is open. Check the class's `controllerName` in the cluster, or add the GatewayClass to the repository (a class served by another implementation makes the route fail closed).";
    TargetGatewayPolicyOverridden = "target/gateway-policy-overridden", Warning,
        "A SecurityPolicy of the repository targets the Gateway; the routes' own SecurityPolicy replaces it for them.",
        "Envoy Gateway applies one SecurityPolicy to a request: the one on the route rule, else the route, else the listener, else the Gateway (`internal/gatewayapi/securitypolicy.go`; without `mergeType`, nothing of the less specific one is kept). The routes written for the source's access controls get a SecurityPolicy of their own, so the Gateway's policy (a platform-wide allow-list, external auth) no longer applies to them. Copy what it checks into the routes' policy, or set `mergeType: StrategicMerge` on it after checking how the two merge.";
    TargetPathNormalization = "target/path-normalization", Warning,
        "An Istio AuthorizationPolicy scoped by path is matched after Istio's path normalization, which does not merge slashes or decode %2F the way nginx did.",
        "nginx merges repeated slashes and decodes the URI before it chooses a location, so `//admin` and `/x/..%2Fadmin` were `/admin` and met its allow-list. Istio matches an AuthorizationPolicy's `paths` against the path its normalization leaves (`meshConfig.pathNormalization`: `BASE`, the default, resolves `..` only; `MERGE_SLASHES` merges slashes; `DECODE_AND_MERGE_SLASHES` also decodes `%2F` and `%5C`), and routes the request the same way: such a request misses the policy's paths and may reach a protected backend through an open route. Set `meshConfig.pathNormalization.normalization: DECODE_AND_MERGE_SLASHES` (the repository's mesh configuration is read; this warning goes once it says so).";
    TargetTimeoutsKept = "target/timeouts-kept", Info,
        "Envoy Gateway's 15 s default route timeout is turned off on these routes, and their idle and connect timeouts kept in a BackendTrafficPolicy.",
        "A route rule without `timeouts.request` gets no timeout on its Envoy Gateway route (`internal/xds/translator/route.go`), so Envoy's default of 15 s ends every request still running then; ingress-nginx and Istio had no request timeout (nginx limits the time between two reads or writes, `proxy-read-timeout`/`proxy-send-timeout`, 60 s by default; Istio disables the route timeout). Long downloads, uploads and slow reports would start failing with 504 after the cut-over. So with `--target envoy-gateway` each forwarding rule without one gets `timeouts.request: 0s` (zero disables it), and a BackendTrafficPolicy on the source's routes sets `requestTimeout: 0s` (GRPCRoutes have no timeouts field) and restores the stream idle timeout a disabled request timeout turns off too: nginx's read/send timeout (Istio's gateways have none); and nginx's `proxy-connect-timeout` (5 s by default, Envoy Gateway's is 10 s). Nothing to do unless you want other limits.";
    TargetRetriesKept = "target/retries-kept", Info,
        "The source's data plane retried failed requests; a BackendTrafficPolicy retry keeps that on Envoy Gateway, which retries nothing by default.",
        "Envoy Gateway sets a retry policy on a route only when the route or a BackendTrafficPolicy asks for one (`internal/xds/translator/route.go` `buildRetryPolicy`, `ir.HTTPRoute.GetRetry`). ingress-nginx retried a failed connection on another endpoint (`proxy_next_upstream error timeout`, 3 tries by default, `proxy-next-upstream*` annotations and ConfigMap keys); Istio retried every route without `retries` of its own (its default 2 retries, or the mesh's `defaultHttpRetryPolicy`). Without a retry, a pod that is restarting or refuses connections fails requests that used to succeed. The BackendTrafficPolicy written for the source's routes gets `retry` with the same number of retries and conditions; Envoy Gateway tries another endpoint each time (its previous-hosts predicate), as nginx did. What nginx retried after the request was sent (idempotent requests only) is kept only where nginx retried non-idempotent requests too (`non_idempotent`, `retry-non-idempotent`), since Envoy retries every method alike. A rule's own `retry` comes before the policy's.";
    TargetRetriesApproximate = "target/retries-approximate", Warning,
        "Retries were written for Envoy Gateway, but not everything the source retried (or how) could be said: the message lists what differs.",
        "The BackendTrafficPolicy's `retry` keeps the number of retries and the conditions Envoy Gateway can express (`api/v1alpha1/retry_types.go`); some of the source's could not be: nginx's status-code retries (`http_502` …) for idempotent requests only, where Envoy would retry POST too; `invalid_header`; a limit on the time spent retrying (`proxy-next-upstream-timeout`); a condition Envoy Gateway's trigger list lacks; gRPC locations, which nginx retried with its `grpc_next_upstream` default. Requests those cover fail where they used to be retried. Add the missing conditions to the policy's `retry.retryOn` if retrying them is safe for the service.";
    TargetLoadBalancingKept = "target/load-balancing-kept", Info,
        "The source chose backend endpoints by session cookie, hash or a set algorithm: a BackendTrafficPolicy loadBalancer keeps it on Envoy Gateway.",
        "ingress-nginx balances each upstream (a Service and port) by a sticky session cookie (`affinity: cookie` and the `session-cookie-*` annotations; `rootfs/etc/nginx/lua/balancer/sticky.lua`), a consistent hash of `upstream-hash-by`, or its `load-balance` algorithm (`round_robin` by default, `ewma`). Envoy Gateway's default is least request with no affinity, so sessions that depended on reaching the same pod would be spread. The BackendTrafficPolicy gets `loadBalancer`: a consistent hash on the cookie with a `ttl` (Envoy then sets the cookie itself, a session cookie for `0s`, with the Path, Domain, SameSite and Secure attributes nginx set), or on the client address, a header (`$http_x` → `x`), cookie or query parameter, or the algorithm. At cut-over the old cookies (nginx's value format) mean nothing to Envoy: each session is placed once more. Without any of these, nginx's default round robin is written (`balancer.lua` `DEFAULT_LB_ALG`), where Envoy Gateway would use least request.";
    TargetLoadBalancingApproximate = "target/load-balancing-approximate", Warning,
        "Load balancing was written for Envoy Gateway, but part of what the source did differs: the message says what.",
        "Some of ingress-nginx's balancing has no Envoy Gateway field: `affinity-mode: persistent` (Envoy's consistent hash moves some sessions when endpoints are added, as `balanced` did), `session-cookie-change-on-failure`, `session-cookie-conditional-samesite-none`, a cookie `Secure` only over HTTPS, the cookie's `Path` set per location when the Ingress has several paths, `ewma` (approximated by least request), and requests without the hashed value (nginx sent them all to one endpoint). ingress-nginx also took an upstream's balancing from another Ingress naming the same Service (the first it reads; the last with affinity for the cookie): the route gets that. Check the sessions that matter, and set the annotation the message names (`session-cookie-path`, `session-cookie-secure`) where it helps.";
    TargetRateLimit = "target/rate-limit", Warning,
        "ingress-nginx's per-client request rate limit is written as an Envoy Gateway local rate limit: the sustained rate is kept, bursts and the status are not.",
        "`limit-rps` and `limit-rpm` limited each client address (`$binary_remote_addr`; clients in `limit-allowlist` exempt) per nginx replica, letting a burst of `limit × limit-burst-multiplier` (5) requests through at once (`limit_req … burst=… nodelay`, `template.go` `buildRateLimit`) and answering the rest with `limit-req-status-code` (503). The BackendTrafficPolicy gets a local `rateLimit` (`api/v1alpha1/ratelimit_types.go`): per Envoy replica, each client address counted apart (`sourceCIDR` `Distinct`; a rule holds one range, so the allow-list is kept by a rule for each of the few ranges that cover every address outside it, at most 16 rules), `requests` per `unit` with no burst beyond that, answered 429. Each route rule has its own bucket, where nginx counted all paths of the Ingress together. Clients that burst (page loads fetching many assets, batch jobs) may now be limited: raise `requests` if they are. The limit counts the address Envoy sees: behind a load balancer, set up client IP detection (ClientTrafficPolicy `clientIPDetection`) before cut-over; with nginx's forwarded-address settings the limit is not written.";
    TargetCircuitBreaker = "target/circuit-breaker", Info,
        "Envoy Gateway's default circuit breaker (1024 requests, connections and pending requests per backend and replica) is raised to what the source allowed.",
        "Without a `circuitBreaker`, Envoy Gateway leaves Envoy's thresholds on each backend of a route rule (`internal/xds/translator/cluster.go` `buildXdsClusterCircuitBreaker`; `api/v1alpha1/circuitbreaker_types.go`: 1024 connections, pending requests and parallel requests per Envoy replica): beyond them Envoy answers 503 at once. ingress-nginx queued nothing per backend (its bound is `max-worker-connections` per worker, for all traffic), and Istio sets every threshold to the largest value unless a DestinationRule's `connectionPool` sets one (`pilot/pkg/networking/core/cluster_traffic_policy.go` `getDefaultCircuitBreakerThresholds`, `applyConnectionPool`). A busy backend would start failing requests at the cut-over. The BackendTrafficPolicy sets `circuitBreaker` to the source's limits (4294967295 for none).";
    TargetDestinationRuleKept = "target/destination-rule-kept", Info,
        "An Istio DestinationRule's load balancing, connection pool or outlier detection is written into the routes' BackendTrafficPolicy for Envoy Gateway.",
        "Envoy Gateway reads no DestinationRule and has no per-Service traffic policy: a BackendTrafficPolicy attaches to routes. Where every backend of a VirtualService's routes gets the same DestinationRule (the one Istio's gateway chose: its own namespace, then the Service's, then the root namespace, `push_context.go` `destinationRule`), its `loadBalancer` (simple algorithm, consistent hash on a header, cookie, query parameter or the client address), `connectionPool` (as `circuitBreaker` thresholds, `timeout.tcp.connectTimeout`, `timeout.http.connectionIdleTimeout`) and `outlierDetection` (as `healthCheck.passive`, with Envoy's defaults Istio relied on written out: 5 consecutive 5xx, a 10 s interval, 30 s ejection, 10 %, no panic mode unless `minHealthPercent`) are written there (`pilot/pkg/networking/core/cluster_traffic_policy.go`).";
    TargetDestinationRuleApproximate = "target/destination-rule-approximate", Warning,
        "An Istio DestinationRule's traffic policy was written for Envoy Gateway, but part of it has no field there or applies differently: the message says what.",
        "Some DestinationRule settings have no BackendTrafficPolicy field (`localityLbSetting`, `h2UpgradePolicy`, `maxConcurrentStreams`, `tcpKeepalive` details, `PASSTHROUGH`, an outlier `consecutive5xxErrors: 0`), and Envoy Gateway hashes with Maglev where Istio used a ring hash (sessions move once at the cut-over). Check the settings the message names against the service's needs.";
    TargetPolicyRenamed = "target/policy-renamed", Info,
        "A generated policy was renamed: another source's policy of the same kind and name is generated in the same namespace.",
        "Policies are named after their source (an Ingress, a VirtualService); an Ingress and a VirtualService of the same name in one namespace would both get, say, a BackendTrafficPolicy of that name, and the second would replace the first on apply, taking its retries, limits or access controls with it. The later one (in the repository's order) gets a `-2` suffix. Nothing refers to a policy by name, so nothing else changes.";
    // ── Rendering kustomize builds ──
    RenderNoKustomize = "render/no-kustomize", Warning,
        "Neither kustomize nor kubectl was found: kustomize builds are not rendered.",
        "Neither `kustomize` nor `kubectl` is on `PATH` (or `--kustomize` names none): overlays, components, patches, replacements and namespace transforms are not followed, and each file is translated as it is. Install one of them or pass `--kustomize PATH`.";
    RenderRemoteResource = "render/remote-resource", Warning,
        "A build includes a remote resource, which is not fetched: the build is not rendered.",
        "A kustomization the build reaches includes a remote base or resource (a URL or a git repository). Remote input is not fetched unless `--allow-remote` is given, so the build is not rendered and its files are translated as they are; what the remote part adds or patches is not seen.";
    RenderOutsideRoot = "render/outside-root", Warning,
        "A build reads a path outside the repository: the build is not rendered.",
        "A kustomization the build reaches names a resource, component or patch outside the repository (`../../elsewhere`, an absolute path), or one reached through a symlink (which could lead anywhere). Nothing outside the repository is read and no symlink is followed, so the build is not rendered and its files are translated as they are.";
    RenderUnreadKustomization = "render/unread-kustomization", Warning,
        "A build includes a kustomization this tool could not read: the build is not rendered.",
        "A kustomization the build reaches includes a directory whose kustomization this tool could not read (it failed to parse, see its `load/*` diagnostic, or the walk skipped it, e.g. through `.gitignore`). What that kustomization includes cannot be checked for remote or outside input, so the build is not rendered and its files are translated as they are.";
    RenderHelmRefused = "render/helm-refused", Warning,
        "A build inflates Helm charts: the build is not rendered.",
        "A kustomization the build reaches has `helmCharts:` (or the Helm inflation generator). Helm is never run on repository input, so the build is not rendered and its files are translated as they are.";
    RenderPluginRefused = "render/plugin-refused", Warning,
        "A build configures a plugin or KRM function: the build is not rendered.",
        "A kustomization the build reaches lists generators, transformers or validators that are not kustomize builtins (KRM functions run as executables or containers, legacy plugins). Nothing from the repository is executed, so the build is not rendered and its files are translated as they are.";
    RenderBudgetSpent = "render/budget-spent", Warning,
        "The run's rendering budget was spent before every build was rendered.",
        "All kustomize renders of one run share a time budget (600 seconds by default, `--render-budget`); once it is spent no build is started, and the builds it stopped are translated from their files (or not verified after apply). A build whose render timed out (`--render-timeout`, 120 seconds by default) is never rendered again in the same run. The message lists the builds.";
    RenderRefusedBroken = "render/refused-broken", Error,
        "A build that is not rendered (remote, Helm, plugin or outside input) would deploy generated objects whose translation has errors: apply ships them broken into it.",
        "A refused build cannot be rendered, translated as it renders or verified, so after apply it deploys the files' translation of what it includes. Where that translation has errors (routes without backends, hosts that do not resolve in the files alone, objects the validator refused), the build would ship broken routes, although the same run reports them. With the bases the build reaches available (kubeflow's `example/` build: 1 of 11 VirtualServices got a working route from the files, 11 of 11 when rendered), the errors often disappear. Vendor the remote bases into the repository (`kustomize localize`), allow what the build needs, or fix the errors; the message names the objects and their error codes.";
    RenderFailed = "render/failed", Warning,
        "kustomize could not build a build root: its files are translated as they are.",
        "kustomize failed on the build (its message is included). The build's files are translated as they are, which misses what the build's overlays, patches and replacements change; fix the build so `kubectl kustomize` succeeds.";
    RenderBuildDiffers = "render/build-differs", Error,
        "After apply, a build would deploy Gateway API objects that differ from the translation of what it deploys today.",
        "The build was rendered as the repository will be after apply and its Gateway API objects were compared with the translation of the build's current render (hostnames, matches, backends, filters, parents, namespaces). The message names the build, the object and the first differing field. Traffic of that build would change; fix the overlay or the generated patch by hand.";
    RenderDeployPathOutside = "render/deploy-path-outside", Warning,
        "A Flux Kustomization or Argo CD Application deploys a path outside the repository.",
        "A Flux `Kustomization` (`spec.path`) or an Argo CD `Application` (`spec.source.path`, `spec.sources[].path`) names a path that leaves the repository; it is not built.";
    RenderSharedObject = "render/shared-object", Warning,
        "Several builds deploy a generated object with the same kind, namespace and name but different specs.",
        "Each build is translated as it renders, so a Gateway shared by routes of several builds (the Gateway created per IngressClass, an Istio Gateway several applications bind to) becomes one object per build, each with that build's listeners only. Deployed to different clusters, that is what each cluster needs. Deployed to the same cluster and namespace, the builds overwrite each other's object and the last one applied wins: the other builds' hosts stop being served. If they share a cluster, give the Gateway one home: a build of its own that every application's routes attach to, as Istio Gateways usually have.";
    RenderApplySeparately = "render/apply-separately", Warning,
        "Generated objects must live in a namespace no build deploys into: they are written to a file no kustomization includes.",
        "A build's `namespace:` transform would move these generated objects (a ReferenceGrant that must sit next to the Secret it permits, a Gateway in the gateway namespace) and no build of the repository deploys into their namespace unchanged. They are written to a separate file that no kustomization includes; apply it where that namespace is managed.";
    // ── Routing equivalence ──
    EquivalenceChanged = "equivalence/changed", Error,
        "A request the old configuration routed one way is routed another way by the generated objects.",
        "The routing model sent the same probe request through the old configuration (Istio's gateway proxy, or ingress-nginx) and through the generated Gateway API objects, and the outcomes differ: other backends or shares, another redirect, another rewritten path, a direct response, or a 404. The message shows the request and both outcomes; the diagnostic sits at the old rule that decided the request (or at the object when no rule did). Common causes: rules of several objects competing (first match in Istio, most specific match in Gateway API, ties broken by name), ingress-nginx's host-wide regex and per-host HTTPS redirect, RegularExpression precedence. Fix the source or the generated route, or accept the change with a suppression naming the reason. `docs/equivalence.md` describes the model.";
    EquivalenceBudget = "equivalence/budget", Warning,
        "The behaviour check's probe budget for an entry point was spent: some requests were not checked.",
        "The behaviour check sends at most 20,000 probe requests per entry point (an Istio Gateway, an IngressClass); hosts take turns, so each host gets a share. When the budget is spent, the requests left out are not sent: the summary counts them as not modelled, and this warning (at the object that anchors the entry point) says how many. The check then proves less than it seems: split the entry point's hosts, or review the routes of hosts with many paths by hand.";
    EquivalenceOrderUnknown = "equivalence/order-unknown", Warning,
        "Istio's answer to a request depends on which of two VirtualServices for the host was created first, and the repository does not say.",
        "Istio merges the routes of every VirtualService bound to a host in the order of their creation time, then name, then namespace (`pilot/pkg/model/config.go` `configCompareByCreationTime`; the virtual host takes each VirtualService's routes in that order, `pilot/pkg/networking/core/gateway.go` `buildGatewayHTTPRouteConfig`). Manifests rarely carry `metadata.creationTimestamp`, so the check assumes objects applied together (same second, then name order). For this request another VirtualService also matches and would answer otherwise if it was created first; in the cluster that is what happens if it is older. The generated HTTPRoutes are ordered by their own creation time, then `namespace/name` (HTTPRouteRule precedence). Make the two VirtualServices' matches disjoint, or check in the cluster which one is older (`kubectl get virtualservice -o custom-columns=NAME:.metadata.name,CREATED:.metadata.creationTimestamp`) and that the new order keeps it first.";
    EquivalenceExplained = "equivalence/explained", Info,
        "A traffic change the routing model found that a more specific diagnostic at the same rule already reports.",
        "The routing model found a probe whose outcome differs, at a rule that already carries a warning or error of the translator explaining why (a dropped match, an untranslatable rewrite). The message names that code and shows the request and both outcomes, so the reviewer sees the concrete effect without a second error for the same cause.";
    // ── Staleness (`check`) ──
    CheckMissing = "check/missing", Error,
        "A generated file that `apply` would create does not exist.",
        "A generated file that `apply` would create does not exist.";
    CheckOrphaned = "check/orphaned", Error,
        "A generated file (recognised by its header) whose source file is gone or no longer yields any object.",
        "A generated file (recognised by its header) whose source file is gone or no longer yields any object.";
    CheckOutdated = "check/outdated", Error,
        "A generated file exists but differs from what its sources give now (a source changed after the last `apply`).",
        "A generated file exists but differs from what its sources give now (a source changed after the last `apply`).";
    CheckUnlisted = "check/unlisted", Error,
        "A kustomization lacks the entry `apply` would add for a generated file.",
        "A kustomization lacks the entry `apply` would add for a generated file.";
    CheckUntrackedGenerated = "check/untracked-generated", Error,
        "A generated file, or a kustomization listing one, is untracked or has unstaged changes: a commit would leave it out.",
        "In a git repository, `check` compares what is on disk with what git would commit. A generated file that was never added (pre-commit leaves untracked files in place, so every other check passes) or a kustomization whose new entries are not staged would be missing from the commit, and a fresh clone's `kustomize build` would fail or deploy the old objects. The message gives the `git add` command to run.";
    CheckUntranslated = "check/untranslated", Error,
        "With `--in-place`, a source file still holds documents that would be replaced.",
        "With `--in-place`, a source file still holds documents that would be replaced.";
    // ── Suppressions ──
    SuppressInvalid = "suppress/invalid", Warning,
        "A `# gateway-migrate:` comment is not a valid suppression (wrong form, no codes, or an unknown code).",
        "Suppression comments read `# gateway-migrate: ignore[CODE, …] reason`, with registered codes (`istio/retries`) or families (`istio/*`). This one was not understood, so it suppresses nothing; the message says why and, for a misspelt code, which one was probably meant.";
    SuppressUnused = "suppress/unused", Warning,
        "A suppression (inline comment or configuration `ignore:` rule) matched no diagnostic.",
        "The diagnostic it accepted is gone (the input changed or the tool got better), or the comment is not on the line of the field or the object's first line. Remove it, so that it cannot hide a new diagnostic later. Suppressions of stages that did not run (rendering with `--no-render`, staleness outside `check`) are not reported.";
    InternalPanic = "internal/panic", Error,
        "gateway-migrate crashed while processing this file, object, build or stage; the rest of the run went on.",
        "A bug in gateway-migrate, not in your manifests: processing what the diagnostic names panicked. Its result is missing from this run (nothing is generated or written for it), and everything else was processed as usual, so the report is complete except for it. Please report it at https://github.com/gateway-migrate/gateway-migrate/issues with the message and the file (or a reduced copy that still crashes).";
}
