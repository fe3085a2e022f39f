//! Every ingress-nginx annotation no other handler translates gets a note with its own code
//! (`ingress-nginx/<annotation>`), with the reason from this catalogue (or a generic one).
//! Security-relevant ones (authentication, IP allow-lists, rate limits, snippets, WAF) are
//! errors: dropping them silently opens the service.

use crate::diagnostic::{Code, Diagnostic};

use super::super::ir::IngressPlan;
use super::{
    Annotations, access, backend_protocol, balancing, canary, cors, field, passthrough,
    rate_limits, redirect, retries, rewrite, timeouts, upstream,
};

/// Annotations known to have no Gateway API equivalent, each with its own code (the
/// registry says why and how severe).
pub(crate) const CATALOG: &[(&str, Code)] = &[
    ("auth-signin", Code::NginxAuthSignin),
    ("auth-method", Code::NginxAuthMethod),
    ("auth-request-redirect", Code::NginxAuthRequestRedirect),
    ("auth-snippet", Code::NginxAuthSnippet),
    ("auth-cache-key", Code::NginxAuthCacheKey),
    ("auth-cache-duration", Code::NginxAuthCacheDuration),
    ("auth-tls-verify-client", Code::NginxAuthTlsVerifyClient),
    ("auth-tls-verify-depth", Code::NginxAuthTlsVerifyDepth),
    ("auth-tls-error-page", Code::NginxAuthTlsErrorPage),
    (
        "auth-tls-pass-certificate-to-upstream",
        Code::NginxAuthTlsPassCertificateToUpstream,
    ),
    ("auth-tls-match-cn", Code::NginxAuthTlsMatchCn),
    ("limit-rps", Code::NginxLimitRps),
    ("limit-rpm", Code::NginxLimitRpm),
    ("limit-connections", Code::NginxLimitConnections),
    ("limit-burst-multiplier", Code::NginxLimitBurstMultiplier),
    ("limit-whitelist", Code::NginxLimitWhitelist),
    ("limit-rate", Code::NginxLimitRate),
    ("limit-rate-after", Code::NginxLimitRateAfter),
    ("global-rate-limit", Code::NginxGlobalRateLimit),
    ("configuration-snippet", Code::NginxConfigurationSnippet),
    ("server-snippet", Code::NginxServerSnippet),
    ("stream-snippet", Code::NginxStreamSnippet),
    ("modsecurity-snippet", Code::NginxModsecuritySnippet),
    ("enable-modsecurity", Code::NginxEnableModsecurity),
    ("enable-owasp-core-rules", Code::NginxEnableOwaspCoreRules),
    (
        "modsecurity-transaction-id",
        Code::NginxModsecurityTransactionId,
    ),
    ("affinity", Code::NginxAffinity),
    ("affinity-mode", Code::NginxAffinityMode),
    (
        "affinity-canary-behavior",
        Code::NginxAffinityCanaryBehavior,
    ),
    ("session-cookie-name", Code::NginxSessionCookieName),
    ("session-cookie-path", Code::NginxSessionCookiePath),
    ("session-cookie-domain", Code::NginxSessionCookieDomain),
    ("session-cookie-expires", Code::NginxSessionCookieExpires),
    ("session-cookie-max-age", Code::NginxSessionCookieMaxAge),
    ("session-cookie-samesite", Code::NginxSessionCookieSamesite),
    ("session-cookie-secure", Code::NginxSessionCookieSecure),
    (
        "session-cookie-change-on-failure",
        Code::NginxSessionCookieChangeOnFailure,
    ),
    (
        "session-cookie-conditional-samesite-none",
        Code::NginxSessionCookieConditionalSamesiteNone,
    ),
    ("upstream-hash-by", Code::NginxUpstreamHashBy),
    ("upstream-hash-by-subset", Code::NginxUpstreamHashBySubset),
    (
        "upstream-hash-by-subset-size",
        Code::NginxUpstreamHashBySubsetSize,
    ),
    ("load-balance", Code::NginxLoadBalance),
    ("proxy-body-size", Code::NginxProxyBodySize),
    ("client-body-buffer-size", Code::NginxClientBodyBufferSize),
    ("proxy-buffering", Code::NginxProxyBuffering),
    ("proxy-buffer-size", Code::NginxProxyBufferSize),
    ("proxy-buffers-number", Code::NginxProxyBuffersNumber),
    ("proxy-request-buffering", Code::NginxProxyRequestBuffering),
    ("proxy-max-temp-file-size", Code::NginxProxyMaxTempFileSize),
    ("proxy-next-upstream", Code::NginxProxyNextUpstream),
    (
        "proxy-next-upstream-tries",
        Code::NginxProxyNextUpstreamTries,
    ),
    (
        "proxy-next-upstream-timeout",
        Code::NginxProxyNextUpstreamTimeout,
    ),
    ("proxy-http-version", Code::NginxProxyHttpVersion),
    ("proxy-redirect-from", Code::NginxProxyRedirectFrom),
    ("proxy-redirect-to", Code::NginxProxyRedirectTo),
    ("proxy-cookie-domain", Code::NginxProxyCookieDomain),
    ("proxy-cookie-path", Code::NginxProxyCookiePath),
    ("proxy-ssl-verify-depth", Code::NginxProxySslVerifyDepth),
    ("proxy-ssl-ciphers", Code::NginxProxySslCiphers),
    ("proxy-ssl-protocols", Code::NginxProxySslProtocols),
    ("ssl-ciphers", Code::NginxSslCiphers),
    (
        "ssl-prefer-server-ciphers",
        Code::NginxSslPreferServerCiphers,
    ),
    ("from-to-www-redirect", Code::NginxFromToWwwRedirect),
    ("preserve-trailing-slash", Code::NginxPreserveTrailingSlash),
    ("custom-http-errors", Code::NginxCustomHttpErrors),
    ("default-backend", Code::NginxDefaultBackend),
    ("mirror-target", Code::NginxMirrorTarget),
    ("mirror-request-body", Code::NginxMirrorRequestBody),
    ("mirror-host", Code::NginxMirrorHost),
    ("server-alias", Code::NginxServerAlias),
    ("service-upstream", Code::NginxServiceUpstream),
    ("connection-proxy-header", Code::NginxConnectionProxyHeader),
    ("custom-headers", Code::NginxCustomHeaders),
    ("enable-access-log", Code::NginxEnableAccessLog),
    ("enable-opentracing", Code::NginxEnableOpentracing),
    ("enable-opentelemetry", Code::NginxEnableOpentelemetry),
    (
        "opentelemetry-trust-incoming-span",
        Code::NginxOpentelemetryTrustIncomingSpan,
    ),
    ("satisfy", Code::NginxSatisfy),
    ("fastcgi-index", Code::NginxFastcgiIndex),
    (
        "fastcgi-params-configmap",
        Code::NginxFastcgiParamsConfigmap,
    ),
    ("http2-push-preload", Code::NginxHttp2PushPreload),
    ("x-forwarded-port", Code::NginxXForwardedPort),
];

/// Keys some family handler translates; with `carried`, also those the target's backend
/// policy carries (`retries`, `balancing`, `rate_limits`).
fn handled(key: &str, carried: bool) -> bool {
    access::reads(key)
        || (carried
            && [retries::KEYS, balancing::KEYS, rate_limits::KEYS]
                .iter()
                .any(|k| k.contains(&key)))
        || [
            backend_protocol::KEYS,
            canary::KEYS,
            cors::KEYS,
            passthrough::KEYS,
            redirect::KEYS,
            rewrite::KEYS,
            timeouts::KEYS,
            upstream::KEYS,
            super::CONTROLLER_KEYS,
        ]
        .iter()
        .any(|keys| keys.contains(&key))
}

/// The diagnostic for an annotation nothing translates.
pub(crate) fn untranslated(key: &str) -> Diagnostic {
    let code = CATALOG
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(Code::NginxUnsupportedAnnotation, |(_, c)| *c);
    let why = match code.entry().explanation.split_once("is not translated: ") {
        Some((_, why)) => why.trim_end_matches('.'),
        None => "this ingress-nginx annotation has no Gateway API equivalent in gateway-migrate",
    };
    Diagnostic::new(
        code,
        format!("{}{key}: not translated: {why}", super::PREFIX),
    )
    .at(field(key))
}

pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations, carried: bool) {
    for key in ann.keys() {
        if !handled(key, carried) {
            plan.result.notes.push(untranslated(key));
        }
    }
}

/// With `ssl-passthrough`, ingress-nginx ignores every other annotation of the Ingress.
pub(crate) fn note_ignored_by_passthrough(plan: &mut IngressPlan, ann: &Annotations) {
    for key in ann.keys().filter(|k| *k != "ssl-passthrough") {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxIgnoredBySslPassthrough,
                format!(
                    "{}{key} has no effect with ssl-passthrough (nginx ignores it too)",
                    super::PREFIX
                ),
            )
            .at(field(key)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogued_annotation_has_its_own_code_named_after_it() {
        assert!(CATALOG.len() > 80);
        for (key, code) in CATALOG {
            assert_eq!(code.id(), format!("ingress-nginx/{key}"));
            assert!(
                !handled(key, false),
                "{key} is translated, so it is not in the catalogue"
            );
            let d = untranslated(key);
            assert_eq!(d.code, *code);
            assert!(d.message.contains("not translated: "), "{}", d.message);
            assert!(!d.message.ends_with('.'), "{}", d.message);
        }
        let unknown = untranslated("brand-new-annotation");
        assert_eq!(unknown.code, Code::NginxUnsupportedAnnotation);
        assert!(unknown.message.contains("brand-new-annotation"));
    }
}
