//! Which part of a request's fate each translator diagnostic says changes: the typed link
//! between a translator's warning and the equivalence check's finding at the same rule. A
//! difference in `routing` is explained only by a diagnostic that says routing changes, never
//! by one about timeouts that happens to sit on the same rule.
//!
//! The table was written once by reading each code's summary and explanation; a test checks
//! that every warning and error of the translator families is in it. Codes in no arm explain
//! nothing (informational notes that say a translation is faithful, and the other families).

use super::Code;

/// A part of what happens to a request, as the equivalence check compares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// Which backend (or 404, or no listener) the request reaches.
    Routing,
    /// A response the proxy makes itself (direct response, fault, error page).
    Response,
    Redirect,
    /// The path or host the backend sees.
    Rewrite,
    Headers,
    /// How traffic is split among backends.
    Weights,
    /// Authentication, authorization and source-address checks.
    Access,
    Tls,
    /// A prefix that matched as a plain string prefix (`/api` taking `/apix`).
    StringPrefix,
    /// Copies of the request sent elsewhere.
    Mirrors,
    /// The request timeout.
    Timeouts,
    /// Something the check does not compare (retries, limits, buffers, affinity): such a
    /// diagnostic never explains a compared difference.
    Other,
}

impl Part {
    /// The part's name in `trace`'s differences (`routing`, `headers`, …).
    pub fn name(self) -> &'static str {
        match self {
            Part::Routing => "routing",
            Part::Response => "response",
            Part::Redirect => "redirect",
            Part::Rewrite => "rewrite",
            Part::Headers => "headers",
            Part::Weights => "weights",
            Part::Access => "access",
            Part::Tls => "tls",
            Part::StringPrefix => "string-prefix",
            Part::Mirrors => "mirrors",
            Part::Timeouts => "timeouts",
            Part::Other => "other",
        }
    }
}

impl Code {
    /// The parts of a request's fate this diagnostic reports as changed.
    pub fn changes(self) -> &'static [Part] {
        match self {
            Code::IstioAmbiguousHost
            | Code::IstioAuthorityMatchDropped
            | Code::IstioAuthorityOutsideHosts
            | Code::IstioBackendPortUnknown
            | Code::IstioDelegateNested
            | Code::IstioDelegateNotFound
            | Code::IstioDestinationHostMissing
            | Code::IstioDuplicateObject
            | Code::IstioEgressGateway
            | Code::IstioExportToHidden
            | Code::IstioExternalHostDropped
            | Code::IstioGatewayNoListeners
            | Code::IstioGatewayNotFound
            | Code::IstioIgnoreUriCase
            | Code::IstioInternalGatewayManual
            | Code::IstioInvalidGatewayReference
            | Code::IstioInvalidPort
            | Code::IstioInvalidHostname
            | Code::IstioTemplatedHost
            | Code::IngressTemplatedHost
            | Code::IstioKnativeGateway
            | Code::IstioL4Ports
            | Code::IstioListenerConflict
            | Code::IstioMatchDropped
            | Code::IstioMatchGatewayNotBound
            | Code::IstioMeshHostNotService
            | Code::IstioMeshL4Route
            | Code::IstioMeshRouteNoBackends
            | Code::IstioMeshRouteScope
            | Code::IstioMethodMatchDropped
            | Code::IstioNoBackends
            | Code::IstioNoHosts
            | Code::IstioNoListenerMatch
            | Code::IstioNoValidHostnames
            | Code::IstioPathAsRegex
            | Code::IstioPrecedenceChanged
            | Code::IstioRefusalOvertaken
            | Code::IstioSniOutsideListener
            | Code::IstioPrefixAsRegex
            | Code::IstioRouteUnbound
            | Code::IstioRuleDropped
            | Code::IstioSchemeMatchDropped
            | Code::IstioServerBind
            | Code::IstioServerDefaultEndpoint
            | Code::IstioServerHostsMissing
            | Code::IstioServerPortMissing
            | Code::IstioServerProtocolMissing
            | Code::IstioServerProtocolUnsupported
            | Code::IstioServerTargetPort
            | Code::IstioSharedSelector
            | Code::IstioSourceLabels
            | Code::IstioSourceNamespace
            | Code::IstioTcpRouteOnTlsListener
            | Code::IstioTcpRouteOrder
            | Code::IstioTlsRouteNoHostname
            | Code::IstioTooManyConditions
            | Code::IstioTooManyListeners
            | Code::IstioTooManyParentRefs
            | Code::IstioWithoutHeaders
            | Code::IstioWorkloadSelector
            | Code::IngressDefaultBackendNotMounted
            | Code::IngressDuplicatePath
            | Code::IngressImplementationSpecificRegex
            | Code::IngressInvalidHost
            | Code::IngressInvalidPath
            | Code::IngressListenerLimit
            | Code::IngressMissingBackend
            | Code::IngressMountNarrowed
            | Code::IngressMountNoGateway
            | Code::IngressNamedPortUnresolved
            | Code::IngressNothingToRoute
            | Code::IngressServicePortNotFound
            | Code::IngressWildcardHost
            | Code::NginxBackendProtocolUnsupported
            | Code::NginxClassesShareController
            | Code::NginxDefaultBackend
            | Code::NginxGrpcPath
            | Code::NginxPcreOnlyRegex
            | Code::NginxPrefixTrailingSlash
            | Code::NginxResourceBackendSkipped
            | Code::NginxServerAlias
            | Code::NginxUseRegex
            | Code::NginxUseRegexHostWide
            | Code::IstioNameCollision
            | Code::IngressNameCollision => &[Part::Routing],
            // A refusal or direct answer dropped: what was answered is now routed.
            Code::IstioDirectResponseDropped | Code::IstioFaultInjection | Code::IstioNoAction => {
                &[Part::Response, Part::Routing]
            }
            Code::IstioDirectResponse
            | Code::IstioDirectResponseFailClosed
            | Code::IstioFaultAbortFailClosed
            | Code::NginxCustomHttpErrors => &[Part::Response],
            Code::IstioRedirectAuthority
            | Code::IstioRedirectCode
            | Code::IstioRedirectDerivePort
            | Code::IstioRedirectDerivePortUnknown
            | Code::IstioRedirectScheme
            | Code::IstioRedirectWithRoute
            | Code::IstioRewriteWithRedirect
            | Code::NginxAppRootNotAPath
            | Code::NginxFromToWwwRedirect
            | Code::NginxRedirectCode
            | Code::NginxRedirectQueryDropped
            | Code::NginxRedirectUrlUnsupported
            | Code::NginxSslRedirect
            | Code::NginxSslRedirectFromOtherIngress => &[Part::Redirect],
            Code::IstioHostHeader
            | Code::IstioPrefixRewriteUnsupported
            | Code::IstioRegexRewrite
            | Code::IstioRewriteAuthority
            | Code::IstioRewriteAuthorityPort
            | Code::IstioRewritePrefixSemantics
            | Code::NginxRewriteTargetFullPath
            | Code::NginxRewriteTargetUnsupported
            | Code::NginxUpstreamVhostUnsupported => &[Part::Rewrite],
            Code::IstioHeaderFormatter
            | Code::NginxCustomHeaders
            | Code::NginxProxyCookieDomain
            | Code::NginxProxyCookiePath
            | Code::NginxProxyRedirectFrom
            | Code::NginxProxyRedirectTo => &[Part::Headers],
            Code::IstioPolicyPorts
            | Code::IstioGatewaySourceRanges
            | Code::IstioGatewayTrafficPolicy
            | Code::IstioPolicyWorkload
            | Code::NginxAuthCacheDuration
            | Code::NginxAuthCacheKey
            | Code::NginxAuthMethod
            | Code::NginxAuthRequestRedirect
            | Code::NginxAuthSignin
            | Code::NginxEnableModsecurity
            | Code::NginxEnableOwaspCoreRules
            | Code::NginxSatisfy
            | Code::TargetAccessOrder
            | Code::TargetAccessScope
            | Code::TargetGatewayClassUnknown
            | Code::TargetPathNormalization
            | Code::TargetGatewayPolicyOverridden
            | Code::TargetBasicAuthSecret
            | Code::TargetExtAuthRequest => &[Part::Access],
            Code::IstioBackendCaConfigmap
            | Code::IstioBackendCaUnknown
            | Code::IstioBackendClientCertificate
            | Code::IstioBackendTlsSanLimit
            | Code::IstioBackendTlsSni
            | Code::IstioCaCertCredentialName
            | Code::IstioCaCrl
            | Code::IstioCipherSuitesDropped
            | Code::IstioDestinationRuleTlsMode
            | Code::IstioFileMountedCertificate
            | Code::IstioFileMountedCertificateIgnored
            | Code::IstioFrontendValidationOptional
            | Code::IstioFrontendValidationPerPort
            | Code::IstioInsecureSkipVerify
            | Code::IstioIstioMutualUnsupported
            | Code::IstioPortLevelTls
            | Code::IstioServerCertificateMissing
            | Code::IstioServerInsecureSkipVerify
            | Code::IstioServerTlsIgnored
            | Code::IstioServerTlsMissing
            | Code::IstioServerTlsModeUnsupported
            | Code::IstioTlsModeDefault
            | Code::IstioTlsProtocolVersion
            | Code::IngressCertManager
            | Code::IngressTlsWithoutSecret
            | Code::NginxBackendTlsVerification
            | Code::NginxProxySslCiphers
            | Code::NginxProxySslProtocols
            | Code::NginxProxySslVerifyDepth
            | Code::NginxSslCiphers
            | Code::NginxSslPreferServerCiphers => &[Part::Tls],
            Code::IstioPrefixSemantics => &[Part::StringPrefix],
            Code::IstioDestinationRuleHost
            | Code::IstioDestinationRuleHostMissing
            | Code::IstioGatewayNameLength
            | Code::IstioRetries
            | Code::IstioRetriesDisabled
            | Code::IstioRetryHostSelection
            | Code::IstioRetryOn
            | Code::IstioSubsetTrafficPolicy
            | Code::IstioTrafficPolicyLost
            | Code::IngressClassAnnotation
            | Code::IngressClassChoice
            | Code::IngressNoClass
            | Code::NginxAnnotationPrefix
            | Code::NginxControllerConfigAssumed
            | Code::NginxControllerConfigIncomplete
            | Code::NginxControllerSetting
            | Code::NginxIngressNotWatched
            | Code::IstioMeshDefaultRetries
            | Code::IstioMeshPathNormalization
            | Code::NginxSslPassthroughDisabled
            | Code::NginxAffinity
            | Code::NginxAffinityCanaryBehavior
            | Code::NginxAffinityMode
            | Code::NginxClientBodyBufferSize
            | Code::NginxFastcgiIndex
            | Code::NginxFastcgiParamsConfigmap
            | Code::NginxGlobalRateLimit
            | Code::NginxGrpcFilters
            | Code::NginxLimitBurstMultiplier
            | Code::NginxLimitConnections
            | Code::NginxLimitRate
            | Code::NginxLimitRateAfter
            | Code::NginxLimitRpm
            | Code::NginxLimitRps
            | Code::NginxLimitWhitelist
            | Code::NginxLoadBalance
            | Code::NginxModsecurityTransactionId
            | Code::NginxProxyBodySize
            | Code::NginxProxyBufferSize
            | Code::NginxProxyBuffering
            | Code::NginxProxyBuffersNumber
            | Code::NginxProxyHttpVersion
            | Code::NginxProxyMaxTempFileSize
            | Code::NginxProxyNextUpstream
            | Code::NginxProxyNextUpstreamTries
            | Code::NginxProxyRequestBuffering
            | Code::NginxSessionCookieChangeOnFailure
            | Code::NginxSessionCookieConditionalSamesiteNone
            | Code::NginxSessionCookieDomain
            | Code::NginxSessionCookieExpires
            | Code::NginxSessionCookieMaxAge
            | Code::NginxSessionCookieName
            | Code::NginxSessionCookiePath
            | Code::NginxSessionCookieSamesite
            | Code::NginxSessionCookieSecure
            | Code::NginxUpstreamHashBy
            | Code::NginxUpstreamHashBySubset
            | Code::NginxUpstreamHashBySubsetSize
            | Code::TargetRetriesApproximate
            | Code::TargetLoadBalancingApproximate
            | Code::TargetRateLimit
            | Code::TargetDestinationRuleApproximate => &[Part::Other],
            Code::NginxMirrorHost | Code::NginxMirrorRequestBody | Code::NginxMirrorTarget => {
                &[Part::Mirrors]
            }
            Code::IstioInvalidDuration
            | Code::NginxProxyConnectTimeout
            | Code::NginxProxyNextUpstreamTimeout
            | Code::NginxTimeout
            | Code::NginxTimeoutApproximate => &[Part::Timeouts],
            Code::IstioAutoPassthroughAsPassthrough
            | Code::IstioPassthroughCredential
            | Code::IngressMountNoHttps
            | Code::NginxSslPassthroughNoHost
            | Code::NginxSslPassthroughPlainHttp
            | Code::NginxSslPassthroughPaths
            | Code::NginxSslPassthroughHostWide => &[Part::Routing, Part::Tls],
            Code::TargetAccessFailsClosed => &[Part::Routing, Part::Response, Part::Access],
            Code::NginxSslRedirectNoHttps => &[Part::Redirect, Part::Tls],
            Code::IstioPrefixRewriteCaseSensitive | Code::NginxRewriteTargetApproximated => {
                &[Part::Rewrite, Part::Routing]
            }
            Code::IstioEmptyHeaderValue
            | Code::IstioHeaderConflict
            | Code::IstioInvalidHeaderName
            | Code::IstioTooManyHeaders => &[Part::Headers, Part::Routing],
            Code::IstioCorsLimit
            | Code::IstioCorsMethod
            | Code::IstioCorsNoOrigins
            | Code::IstioCorsOriginDropped
            | Code::NginxCorsDefaults
            | Code::NginxCorsMethod
            | Code::NginxCorsOriginUnsupported => &[Part::Headers, Part::Response],
            Code::IstioFlaggerCanary
            | Code::IstioRolloutTrafficRouting
            | Code::IstioSubset
            | Code::IstioTooManyBackends
            | Code::NginxCanaryByCookie
            | Code::NginxCanaryByHeader
            | Code::NginxCanaryByHeaderPattern
            | Code::NginxCanaryDuplicate
            | Code::NginxCanaryPathNotInPrimary
            | Code::NginxCanaryWeight
            | Code::NginxCanaryWithoutPrimary => &[Part::Weights, Part::Routing],
            Code::IstioJwtClaimMatch => &[Part::Access, Part::Routing],
            Code::IstioClientCertificateCheck
            | Code::IstioClientCertificateModeUnsupported
            | Code::NginxAuthTlsErrorPage
            | Code::NginxAuthTlsMatchCn
            | Code::NginxAuthTlsPassCertificateToUpstream
            | Code::NginxAuthTlsVerifyClient
            | Code::NginxAuthTlsVerifyDepth => &[Part::Access, Part::Tls],
            Code::IstioUnknownField
            | Code::NginxAuthSnippet
            | Code::NginxConfigurationSnippet
            | Code::NginxIngressRejected
            | Code::NginxModsecuritySnippet
            | Code::NginxServerSnippet
            | Code::NginxStreamSnippet
            | Code::NginxUnsupportedAnnotation => &[
                Part::Routing,
                Part::Response,
                Part::Redirect,
                Part::Rewrite,
                Part::Headers,
                Part::Weights,
                Part::Access,
                Part::Tls,
            ],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    /// Every warning and error of the translator families says what it changes, so none is
    /// silently unable to explain a finding.
    #[test]
    fn every_translator_warning_names_what_it_changes() {
        let missing: Vec<&str> = Code::ALL
            .iter()
            .filter(|c| {
                matches!(c.family(), "istio" | "ingress" | "ingress-nginx")
                    && c.severity() <= Severity::Warning
                    && c.changes().is_empty()
            })
            .map(|c| c.id())
            .collect();
        assert!(missing.is_empty(), "{missing:?}");
    }
}
