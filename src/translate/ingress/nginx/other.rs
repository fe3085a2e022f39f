//! Every ingress-nginx annotation no other handler translates gets a note with its own code
//! (`ingress-nginx/<annotation>`), with the reason from this catalogue (or a generic one).
//! Security-relevant ones (authentication, IP allow-lists, rate limits, snippets, WAF) are
//! errors: dropping them silently opens the service.

use crate::note::{Note, Severity};

use super::super::ir::IngressPlan;
use super::{
    Annotations, backend_protocol, canary, cors, field, passthrough, redirect, rewrite, timeouts,
    upstream,
};

/// `(annotation, severity, why it is not translated)`.
pub const CATALOG: &[(&str, Severity, &str)] = &[
    (
        "auth-url",
        Severity::Error,
        "external authentication has no standard Gateway API filter (experimental ExternalAuth is not implemented by Istio); use an Istio AuthorizationPolicy CUSTOM or Envoy Gateway SecurityPolicy extAuth",
    ),
    (
        "auth-signin",
        Severity::Error,
        "the sign-in redirect of external authentication has no Gateway API equivalent",
    ),
    (
        "auth-method",
        Severity::Error,
        "part of external authentication (auth-url), not translated",
    ),
    (
        "auth-response-headers",
        Severity::Error,
        "part of external authentication (auth-url), not translated",
    ),
    (
        "auth-request-redirect",
        Severity::Error,
        "part of external authentication (auth-url), not translated",
    ),
    (
        "auth-snippet",
        Severity::Error,
        "nginx configuration snippet for authentication; no equivalent",
    ),
    (
        "auth-cache-key",
        Severity::Error,
        "external authentication caching has no equivalent",
    ),
    (
        "auth-cache-duration",
        Severity::Error,
        "external authentication caching has no equivalent",
    ),
    (
        "auth-type",
        Severity::Error,
        "basic/digest authentication has no Gateway API equivalent (Envoy Gateway SecurityPolicy basicAuth)",
    ),
    (
        "auth-secret",
        Severity::Error,
        "basic authentication credentials; not translated",
    ),
    (
        "auth-secret-type",
        Severity::Error,
        "basic authentication credentials; not translated",
    ),
    (
        "auth-realm",
        Severity::Error,
        "basic authentication realm; not translated",
    ),
    (
        "auth-tls-secret",
        Severity::Error,
        "client-certificate verification is per port in Gateway API (Gateway spec.tls.frontend), not per host; configure it on the Gateway",
    ),
    (
        "auth-tls-verify-client",
        Severity::Error,
        "client-certificate verification belongs on the Gateway (spec.tls.frontend.validation); not translated",
    ),
    (
        "auth-tls-verify-depth",
        Severity::Error,
        "client-certificate chain depth has no equivalent",
    ),
    (
        "auth-tls-error-page",
        Severity::Error,
        "client-certificate error page has no equivalent",
    ),
    (
        "auth-tls-pass-certificate-to-upstream",
        Severity::Error,
        "passing the client certificate upstream has no standard equivalent",
    ),
    (
        "auth-tls-match-cn",
        Severity::Error,
        "client-certificate CN matching has no equivalent",
    ),
    (
        "whitelist-source-range",
        Severity::Error,
        "IP allow-lists have no Gateway API equivalent (Istio AuthorizationPolicy remoteIpBlocks, Envoy Gateway SecurityPolicy)",
    ),
    (
        "allowlist-source-range",
        Severity::Error,
        "IP allow-lists have no Gateway API equivalent (Istio AuthorizationPolicy remoteIpBlocks, Envoy Gateway SecurityPolicy)",
    ),
    (
        "denylist-source-range",
        Severity::Error,
        "IP deny-lists have no Gateway API equivalent",
    ),
    (
        "limit-rps",
        Severity::Error,
        "rate limits have no Gateway API equivalent (implementation policies)",
    ),
    (
        "limit-rpm",
        Severity::Error,
        "rate limits have no Gateway API equivalent (implementation policies)",
    ),
    (
        "limit-connections",
        Severity::Error,
        "connection limits have no Gateway API equivalent",
    ),
    (
        "limit-burst-multiplier",
        Severity::Error,
        "rate limits have no Gateway API equivalent",
    ),
    (
        "limit-whitelist",
        Severity::Error,
        "rate limits have no Gateway API equivalent",
    ),
    (
        "limit-rate",
        Severity::Warning,
        "bandwidth limits have no Gateway API equivalent",
    ),
    (
        "limit-rate-after",
        Severity::Warning,
        "bandwidth limits have no Gateway API equivalent",
    ),
    (
        "global-rate-limit",
        Severity::Error,
        "rate limits have no Gateway API equivalent",
    ),
    (
        "configuration-snippet",
        Severity::Error,
        "raw nginx configuration cannot be translated; review what it did",
    ),
    (
        "server-snippet",
        Severity::Error,
        "raw nginx configuration cannot be translated; review what it did",
    ),
    (
        "stream-snippet",
        Severity::Error,
        "raw nginx configuration cannot be translated; review what it did",
    ),
    (
        "modsecurity-snippet",
        Severity::Error,
        "the WAF has no Gateway API equivalent",
    ),
    (
        "enable-modsecurity",
        Severity::Error,
        "the WAF has no Gateway API equivalent",
    ),
    (
        "enable-owasp-core-rules",
        Severity::Error,
        "the WAF has no Gateway API equivalent",
    ),
    (
        "modsecurity-transaction-id",
        Severity::Error,
        "the WAF has no Gateway API equivalent",
    ),
    (
        "affinity",
        Severity::Warning,
        "session affinity: Gateway API sessionPersistence is experimental and not implemented by Istio (use a DestinationRule consistentHash)",
    ),
    (
        "affinity-mode",
        Severity::Warning,
        "session affinity mode has no equivalent",
    ),
    (
        "affinity-canary-behavior",
        Severity::Warning,
        "session affinity with canaries has no equivalent",
    ),
    (
        "session-cookie-name",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-path",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-domain",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-expires",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-max-age",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-samesite",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-secure",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-change-on-failure",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "session-cookie-conditional-samesite-none",
        Severity::Warning,
        "session affinity cookie; not translated (see affinity)",
    ),
    (
        "upstream-hash-by",
        Severity::Warning,
        "consistent hashing has no Gateway API equivalent (Istio DestinationRule consistentHash)",
    ),
    (
        "upstream-hash-by-subset",
        Severity::Warning,
        "consistent hashing has no Gateway API equivalent",
    ),
    (
        "upstream-hash-by-subset-size",
        Severity::Warning,
        "consistent hashing has no Gateway API equivalent",
    ),
    (
        "load-balance",
        Severity::Warning,
        "the load-balancing algorithm has no Gateway API equivalent (Istio DestinationRule loadBalancer)",
    ),
    (
        "proxy-body-size",
        Severity::Warning,
        "request body size limits have no Gateway API equivalent (implementation policies)",
    ),
    (
        "client-body-buffer-size",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-buffering",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-buffer-size",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-buffers-number",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-request-buffering",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-max-temp-file-size",
        Severity::Warning,
        "nginx buffering has no equivalent",
    ),
    (
        "proxy-next-upstream",
        Severity::Warning,
        "retries are experimental in Gateway API (HTTPRoute retry); not translated",
    ),
    (
        "proxy-next-upstream-tries",
        Severity::Warning,
        "retries are experimental in Gateway API (HTTPRoute retry); not translated",
    ),
    (
        "proxy-next-upstream-timeout",
        Severity::Warning,
        "retries are experimental in Gateway API; not translated",
    ),
    (
        "proxy-http-version",
        Severity::Warning,
        "the upstream HTTP version follows the Service appProtocol in Gateway API",
    ),
    (
        "proxy-redirect-from",
        Severity::Warning,
        "rewriting Location headers has no equivalent",
    ),
    (
        "proxy-redirect-to",
        Severity::Warning,
        "rewriting Location headers has no equivalent",
    ),
    (
        "proxy-cookie-domain",
        Severity::Warning,
        "rewriting Set-Cookie has no equivalent",
    ),
    (
        "proxy-cookie-path",
        Severity::Warning,
        "rewriting Set-Cookie has no equivalent",
    ),
    (
        "proxy-ssl-verify-depth",
        Severity::Warning,
        "BackendTLSPolicy has no chain-depth setting",
    ),
    (
        "proxy-ssl-ciphers",
        Severity::Warning,
        "BackendTLSPolicy has no cipher setting",
    ),
    (
        "proxy-ssl-protocols",
        Severity::Warning,
        "BackendTLSPolicy has no protocol-version setting",
    ),
    (
        "ssl-ciphers",
        Severity::Warning,
        "TLS ciphers are a Gateway listener setting (tls.options, implementation-specific)",
    ),
    (
        "ssl-prefer-server-ciphers",
        Severity::Warning,
        "TLS cipher preference is a Gateway listener setting",
    ),
    (
        "from-to-www-redirect",
        Severity::Warning,
        "the www redirect needs an extra host and listener; not translated",
    ),
    (
        "preserve-trailing-slash",
        Severity::Info,
        "trailing-slash handling of redirects is implementation-defined",
    ),
    (
        "custom-http-errors",
        Severity::Warning,
        "custom error pages have no Gateway API equivalent",
    ),
    (
        "default-backend",
        Severity::Warning,
        "an error-page default backend has no Gateway API equivalent",
    ),
    (
        "mirror-target",
        Severity::Warning,
        "request mirroring to a URL is not translated (RequestMirror needs a Service backendRef)",
    ),
    (
        "mirror-request-body",
        Severity::Warning,
        "request mirroring is not translated",
    ),
    (
        "mirror-host",
        Severity::Warning,
        "request mirroring is not translated",
    ),
    (
        "server-alias",
        Severity::Warning,
        "extra host names are not added automatically; add them to the route's hostnames if still needed",
    ),
    (
        "service-upstream",
        Severity::Info,
        "Gateway implementations choose between endpoints and the Service IP themselves",
    ),
    (
        "connection-proxy-header",
        Severity::Info,
        "the Connection header is hop-by-hop; implementations manage it",
    ),
    (
        "custom-headers",
        Severity::Warning,
        "response headers from a ConfigMap are not translated (use a ResponseHeaderModifier filter)",
    ),
    (
        "enable-access-log",
        Severity::Info,
        "access logging is configured on the implementation, not on routes",
    ),
    (
        "enable-opentracing",
        Severity::Info,
        "tracing is configured on the implementation, not on routes",
    ),
    (
        "enable-opentelemetry",
        Severity::Info,
        "tracing is configured on the implementation, not on routes",
    ),
    (
        "opentelemetry-trust-incoming-span",
        Severity::Info,
        "tracing is configured on the implementation, not on routes",
    ),
    (
        "satisfy",
        Severity::Error,
        "combining authentication methods has no equivalent",
    ),
    (
        "fastcgi-index",
        Severity::Error,
        "FastCGI backends have no Gateway API equivalent",
    ),
    (
        "fastcgi-params-configmap",
        Severity::Error,
        "FastCGI backends have no Gateway API equivalent",
    ),
    (
        "http2-push-preload",
        Severity::Info,
        "HTTP/2 push is obsolete and has no equivalent",
    ),
    (
        "x-forwarded-port",
        Severity::Info,
        "forwarded headers are set by the implementation",
    ),
];

/// Keys some family handler translates.
fn handled(key: &str) -> bool {
    [
        backend_protocol::KEYS,
        canary::KEYS,
        cors::KEYS,
        passthrough::KEYS,
        redirect::KEYS,
        rewrite::KEYS,
        timeouts::KEYS,
        upstream::KEYS,
    ]
    .iter()
    .any(|keys| keys.contains(&key))
}

/// The note for an annotation nothing translates.
pub fn untranslated(key: &str) -> Note {
    let (severity, why) = CATALOG
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, s, w)| (*s, *w))
        .unwrap_or((
            Severity::Warning,
            "this ingress-nginx annotation has no Gateway API equivalent in gateway-migrate",
        ));
    Note::new(
        severity,
        format!("ingress-nginx/{key}"),
        format!("{}{key}: not translated: {why}", super::PREFIX),
    )
    .at(field(key))
}

pub fn apply(plan: &mut IngressPlan, ann: &Annotations) {
    for key in ann.keys() {
        if !handled(key) {
            plan.result.notes.push(untranslated(key));
        }
    }
}

/// With `ssl-passthrough`, ingress-nginx ignores every other annotation of the Ingress.
pub fn note_ignored_by_passthrough(plan: &mut IngressPlan, ann: &Annotations) {
    for key in ann.keys().filter(|k| *k != "ssl-passthrough") {
        plan.result.notes.push(
            Note::info(
                "ingress-nginx/ignored-by-ssl-passthrough",
                format!(
                    "{}{key} has no effect with ssl-passthrough (nginx ignores it too)",
                    super::PREFIX
                ),
            )
            .at(field(key)),
        );
    }
}
