//! The implementations the output is written for, as data: for each `--target`, the pinned
//! version the facts come from, how it carries each access control the Standard API has no
//! field for (a policy resource, or nothing: the rule then fails closed), and the defaults and
//! limits where it differs from the sources' data planes. The translator writes what a
//! profile says it can; the behaviour model of the new side reads the policies it writes
//! (`semantics::gateway_api`), and `docs/targets.md` is generated from this table.

use crate::config::Target;

/// An access control: a check a request must pass before it is forwarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Control {
    /// Clients in these address ranges only (ingress-nginx `allowlist-source-range`, the
    /// ConfigMap's `whitelist-source-range`).
    SourceAllowList,
    /// Clients outside these ranges only (`denylist-source-range`, `block-cidrs`).
    SourceDenyList,
    /// HTTP basic authentication against the users of a Secret (`auth-type: basic`).
    BasicAuth,
    /// HTTP digest authentication (`auth-type: digest`).
    DigestAuth,
    /// A subrequest to an authentication service decides (`auth-url`, `global-auth-url`).
    ExternalAuth,
    /// The client must present a certificate signed by a CA (`auth-tls-secret` with
    /// `auth-tls-verify-client: on`).
    ClientCertificate,
}

impl Control {
    pub const ALL: [Control; 6] = [
        Control::SourceAllowList,
        Control::SourceDenyList,
        Control::BasicAuth,
        Control::DigestAuth,
        Control::ExternalAuth,
        Control::ClientCertificate,
    ];

    /// What the control is, in a sentence's words.
    pub fn describe(self) -> &'static str {
        match self {
            Control::SourceAllowList => "a client address allow-list",
            Control::SourceDenyList => "a client address deny-list",
            Control::BasicAuth => "basic authentication",
            Control::DigestAuth => "digest authentication",
            Control::ExternalAuth => "external authentication",
            Control::ClientCertificate => "client certificate verification",
        }
    }
}

/// How a target carries one access control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Written as this resource's field, attached with `targetRefs`.
    Policy {
        kind: &'static str,
        field: &'static str,
        /// Where the implementation documents it.
        source: &'static str,
    },
    /// The target has nothing that keeps the check: the rule is published without backends.
    FailsClosed { why: &'static str },
}

/// One target implementation.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    pub target: Target,
    /// The `--target` value.
    pub id: &'static str,
    pub name: &'static str,
    /// The release the facts below were read from.
    pub version: &'static str,
    access: &'static [(Control, Support)],
    /// The `controllerName`s of the GatewayClasses this implementation serves by default, and
    /// the GatewayClass name it installs itself (a Gateway of another controller's class
    /// ignores this implementation's policies).
    pub controllers: &'static [&'static str],
    pub own_class: Option<&'static str>,
    /// The request timeout a route gets when it sets none (`None`: no timeout).
    pub default_request_timeout: Option<&'static str>,
    /// Where the default timeout comes from.
    pub timeout_source: &'static str,
}

impl Profile {
    /// How this target carries `control`.
    pub fn support(&self, control: Control) -> Support {
        self.access.iter().find(|(c, _)| *c == control).map_or(
            Support::FailsClosed {
                why: "this target has no policy resource for it",
            },
            |(_, s)| *s,
        )
    }
}

const EG_SECURITY_POLICY: &str = "envoyproxy/gateway v1.9.0 api/v1alpha1/securitypolicy_types.go";

/// Every profile, in `--target` order.
pub const PROFILES: [Profile; 3] = [
    Profile {
        target: Target::Istio,
        id: "istio",
        name: "Istio",
        version: "istio/istio 86c9f01f (the commit its CRDs are pinned at)",
        access: &[
            (
                Control::SourceAllowList,
                Support::Policy {
                    kind: "AuthorizationPolicy",
                    field: "action DENY, rules[].from[].source.notRemoteIpBlocks",
                    source: "istio/api security/v1beta1/authorization.proto",
                },
            ),
            (
                Control::SourceDenyList,
                Support::Policy {
                    kind: "AuthorizationPolicy",
                    field: "action DENY, rules[].from[].source.remoteIpBlocks",
                    source: "istio/api security/v1beta1/authorization.proto",
                },
            ),
            (
                Control::BasicAuth,
                Support::FailsClosed {
                    why: "Istio has no basic authentication (only JWT with RequestAuthentication, and external authorization through a mesh extension provider)",
                },
            ),
            (
                Control::DigestAuth,
                Support::FailsClosed {
                    why: "Istio has no digest authentication",
                },
            ),
            (
                Control::ClientCertificate,
                Support::FailsClosed {
                    why: "Gateway API validates client certificates per port of the whole Gateway (spec.tls.frontend), while ingress-nginx asked for them on one host only; the tool does not write that yet",
                },
            ),
            (
                Control::ExternalAuth,
                Support::FailsClosed {
                    why: "Istio calls an authentication service only through a CUSTOM AuthorizationPolicy naming an extensionProviders entry of the mesh configuration, which prefixes the request's own path to the service's (no fixed path as auth-url has), and a CUSTOM policy whose provider the mesh lacks denies every request of the Gateway (pilot/pkg/security/authz/builder/builder.go buildHTTP)",
                },
            ),
        ],
        // pilot/pkg/features/pilot.go `ManagedGatewayController` (PILOT_GATEWAY_API_CONTROLLER_NAME's
        // default); Istio creates its GatewayClass `istio` itself
        // (pilot/pkg/config/kube/gatewaycommon/gatewayclass.go `builtinClasses`).
        controllers: &["istio.io/gateway-controller"],
        own_class: Some("istio"),
        default_request_timeout: None,
        timeout_source: "istio/istio pilot/pkg/networking/core/route/route.go setTimeout: Notimeout (0s, disabled) unless the route sets one",
    },
    Profile {
        target: Target::EnvoyGateway,
        id: "envoy-gateway",
        name: "Envoy Gateway",
        version: "envoyproxy/gateway v1.9.0",
        access: &[
            (
                Control::SourceAllowList,
                Support::Policy {
                    kind: "SecurityPolicy",
                    field: "authorization (defaultAction Deny, an Allow rule with principal.clientCIDRs)",
                    source: EG_SECURITY_POLICY,
                },
            ),
            (
                Control::SourceDenyList,
                Support::Policy {
                    kind: "SecurityPolicy",
                    field: "authorization (a Deny rule with principal.clientCIDRs)",
                    source: EG_SECURITY_POLICY,
                },
            ),
            (
                Control::BasicAuth,
                Support::Policy {
                    kind: "SecurityPolicy",
                    field: "basicAuth.users",
                    source: "envoyproxy/gateway v1.9.0 api/v1alpha1/basic_auth_types.go",
                },
            ),
            (
                Control::DigestAuth,
                Support::FailsClosed {
                    why: "Envoy Gateway has basic authentication only, no digest",
                },
            ),
            (
                Control::ExternalAuth,
                Support::Policy {
                    kind: "SecurityPolicy",
                    field: "extAuth.http (backendRefs, pathOverride, headersToBackend)",
                    source: "envoyproxy/gateway v1.9.0 api/v1alpha1/ext_auth_types.go",
                },
            ),
            (
                Control::ClientCertificate,
                Support::FailsClosed {
                    why: "Envoy Gateway validates client certificates per listener with a ClientTrafficPolicy (tls.clientValidation), but cannot limit the chain depth (ingress-nginx's auth-tls-verify-depth, 1 by default: only certificates the CA signed itself) nor match the subject (auth-tls-match-cn), so it would accept certificates nginx refused (api/v1alpha1/tls_types.go ClientValidationContext)",
                },
            ),
        ],
        // api/v1alpha1/envoygateway_types.go `GatewayControllerName` (the default).
        controllers: &["gateway.envoyproxy.io/gatewayclass-controller"],
        own_class: None,
        default_request_timeout: Some("15s"),
        timeout_source: "envoyproxy/gateway v1.9.0 internal/xds/translator/route.go sets a route timeout only when one is configured; Envoy's RouteAction.timeout defaults to 15s",
    },
    Profile {
        target: Target::Generic,
        id: "generic",
        name: "any implementation (portable output)",
        version: "Gateway API v1.6.1",
        access: &[],
        controllers: &[],
        own_class: None,
        default_request_timeout: None,
        timeout_source: "Gateway API leaves the default to the implementation",
    },
];

/// The profile of `target`.
pub fn profile(target: Target) -> &'static Profile {
    PROFILES
        .iter()
        .find(|p| p.target == target)
        .unwrap_or(&PROFILES[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_one_profile_answering_every_control() {
        for t in [Target::Istio, Target::EnvoyGateway, Target::Generic] {
            assert_eq!(PROFILES.iter().filter(|p| p.target == t).count(), 1);
            assert_eq!(profile(t).target, t);
        }
        for p in &PROFILES {
            for c in Control::ALL {
                if let Support::FailsClosed { why } = p.support(c) {
                    assert!(!why.is_empty());
                }
            }
        }
        // The portable output has no policy resource at all.
        assert!(Control::ALL.iter().all(|c| matches!(
            profile(Target::Generic).support(*c),
            Support::FailsClosed { .. }
        )));
    }
}
