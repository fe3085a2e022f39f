//! One test per CEL rule (`x-kubernetes-validations`) of the standard-channel v1.6.1 CRDs of
//! the kinds gateway-migrate emits (Gateway, HTTPRoute, GRPCRoute, TLSRoute, TCPRoute,
//! BackendTLSPolicy): each test builds a violating object (the rule's exact CRD message must be
//! reported) and a passing one (which must validate without any violation at all).
//! `every_rule_has_a_test` checks that no rule of those CRDs is left without one; the rules only
//! the experimental CRDs carry are tested on that channel (`every_experimental_rule_has_a_test`).

use std::collections::BTreeSet;

use gateway_migrate::config::Channel;
use gateway_migrate::validate::{self, cel, crd};
use serde_json::{Value, json};

fn gateway() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw", "namespace": "web"},
        "spec": {"gatewayClassName": "istio", "listeners": [
            {"name": "http", "port": 80, "protocol": "HTTP"}]}})
}

fn http_route() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
        "metadata": {"name": "r", "namespace": "web"},
        "spec": {"parentRefs": [{"name": "gw"}], "rules": [{
            "matches": [{"path": {"type": "PathPrefix", "value": "/"}}],
            "backendRefs": [{"name": "svc", "port": 80}]}]}})
}

fn grpc_route() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GRPCRoute",
        "metadata": {"name": "g", "namespace": "web"},
        "spec": {"parentRefs": [{"name": "gw"}], "rules": [{
            "matches": [{"method": {"service": "foo.Bar"}}],
            "backendRefs": [{"name": "svc", "port": 9000}]}]}})
}

fn tls_route() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "TLSRoute",
        "metadata": {"name": "t", "namespace": "web"},
        "spec": {"parentRefs": [{"name": "gw"}], "hostnames": ["a.example.com"],
            "rules": [{"backendRefs": [{"name": "svc", "port": 443}]}]}})
}

fn tcp_route() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "TCPRoute",
        "metadata": {"name": "t", "namespace": "web"},
        "spec": {"parentRefs": [{"name": "gw"}],
            "rules": [{"backendRefs": [{"name": "db", "port": 5432}]}]}})
}

fn backend_tls_policy() -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "BackendTLSPolicy",
        "metadata": {"name": "p", "namespace": "web"},
        "spec": {"targetRefs": [{"group": "", "kind": "Service", "name": "svc"}],
            "validation": {"hostname": "svc.example.com", "wellKnownCACertificates": "System"}}})
}

/// Sets (or, with `null`, removes) the field at a JSON pointer, creating objects on the way;
/// an array index equal to the length appends.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let segs: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut cur = doc;
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        if let Ok(idx) = seg.parse::<usize>()
            && cur.is_array()
        {
            let arr = cur.as_array_mut().unwrap();
            if last {
                if value.is_null() {
                    arr.remove(idx);
                } else if idx == arr.len() {
                    arr.push(value);
                } else {
                    arr[idx] = value;
                }
                return;
            }
            if idx == arr.len() {
                arr.push(json!({}));
            }
            cur = &mut arr[idx];
        } else {
            let obj = cur.as_object_mut().unwrap();
            if last {
                if value.is_null() {
                    obj.remove(*seg);
                } else {
                    obj.insert(seg.to_string(), value);
                }
                return;
            }
            cur = obj.entry(seg.to_string()).or_insert_with(|| json!({}));
        }
    }
}

fn apply(base: Value, edits: &[(&str, Value)]) -> Value {
    let mut doc = base;
    for (p, v) in edits {
        set(&mut doc, p, v.clone());
    }
    doc
}

/// The rule's message is reported for `bad`; `good` is entirely valid (standard channel).
fn check(base: fn() -> Value, message: &str, bad: &[(&str, Value)], good: &[(&str, Value)]) {
    check_on(Channel::Standard, base, message, bad, good);
}

/// The same on the experimental channel, for the rules only its CRDs carry.
fn check_experimental(
    base: fn() -> Value,
    message: &str,
    bad: &[(&str, Value)],
    good: &[(&str, Value)],
) {
    check_on(Channel::Experimental, base, message, bad, good);
}

fn check_on(
    channel: Channel,
    base: fn() -> Value,
    message: &str,
    bad: &[(&str, Value)],
    good: &[(&str, Value)],
) {
    let bad_doc = apply(base(), bad);
    let found = validate::validate_object(&bad_doc, channel);
    assert!(
        found
            .iter()
            .any(|v| v.rule == "cel" && v.message == message),
        "violating object did not report {message:?}:\n{found:#?}\n{bad_doc:#}"
    );
    let good_doc = apply(base(), good);
    let found = validate::validate_object(&good_doc, channel);
    assert!(
        found.is_empty(),
        "passing object reported:\n{found:#?}\n{good_doc:#}"
    );
}

macro_rules! rules {
    ($($name:ident: $base:ident, $msg:expr, bad [$($bp:expr => $bv:tt),* $(,)?], good [$($gp:expr => $gv:tt),* $(,)?];)*) => {
        $(
            #[test]
            fn $name() {
                check($base, $msg, &[$(($bp, json!($bv))),*], &[$(($gp, json!($gv))),*]);
            }
        )*
        /// Every message the tests above cover.
        const TESTED: &[&str] = &[$($msg),*];
    };
}

macro_rules! experimental_rules {
    ($($name:ident: $base:ident, $msg:expr, bad [$($bp:expr => $bv:tt),* $(,)?], good [$($gp:expr => $gv:tt),* $(,)?];)*) => {
        $(
            #[test]
            fn $name() {
                check_experimental($base, $msg, &[$(($bp, json!($bv))),*], &[$(($gp, json!($gv))),*]);
            }
        )*
        /// Every experimental-only message the tests above cover.
        const TESTED_EXPERIMENTAL: &[&str] = &[$($msg),*];
    };
}

fn matches_n(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"path": {"type": "Exact", "value": format!("/p{i}")}}))
            .collect(),
    )
}

fn long_prefix() -> String {
    vec!["a".repeat(60); 5].join(".") + "/name"
}

const HDR: fn() -> Value = || json!({"set": [{"name": "x-a", "value": "1"}]});
const MIRROR: fn() -> Value = || json!({"backendRef": {"name": "mirror", "port": 80}});
const EXT: fn() -> Value = || json!({"group": "example.com", "kind": "Filter", "name": "f"});
const CORS: fn() -> Value = || json!({"allowOrigins": ["https://a.example.com"]});
const CERT: fn() -> Value = || json!({"mode": "Terminate", "certificateRefs": [{"name": "cert"}]});
const PREFIX_REDIRECT: fn() -> Value = || json!({"type": "RequestRedirect", "requestRedirect": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}});
const PREFIX_REWRITE: fn() -> Value = || json!({"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}});
const TWO_MATCHES: fn() -> Value = || json!([{"path": {"type": "PathPrefix", "value": "/a"}}, {"path": {"type": "PathPrefix", "value": "/b"}}]);
const ONE_MATCH: fn() -> Value = || json!([{"path": {"type": "PathPrefix", "value": "/a"}}]);

rules! {
    // ---- BackendTLSPolicy ----
    btp_section_name_required_for_repeated_target: backend_tls_policy,
        "sectionName must be specified when targetRefs includes 2 or more references to the same target",
        bad ["/spec/targetRefs/1" => {"group": "", "kind": "Service", "name": "svc", "sectionName": "https"}],
        good ["/spec/targetRefs/1" => {"group": "", "kind": "Service", "name": "other"}];
    btp_section_name_unique_for_repeated_target: backend_tls_policy,
        "sectionName must be unique when targetRefs includes 2 or more references to the same target",
        bad ["/spec/targetRefs/0/sectionName" => "a", "/spec/targetRefs/1" => {"group": "", "kind": "Service", "name": "svc", "sectionName": "a"}],
        good ["/spec/targetRefs/0/sectionName" => "a", "/spec/targetRefs/1" => {"group": "", "kind": "Service", "name": "svc", "sectionName": "b"}];
    btp_not_both_ca_kinds: backend_tls_policy,
        "must not contain both CACertificateRefs and WellKnownCACertificates",
        bad ["/spec/validation/caCertificateRefs" => [{"group": "", "kind": "ConfigMap", "name": "ca"}]],
        good ["/spec/validation/wellKnownCACertificates" => null, "/spec/validation/caCertificateRefs" => [{"group": "", "kind": "ConfigMap", "name": "ca"}]];
    btp_one_ca_kind_required: backend_tls_policy,
        "must specify either CACertificateRefs or WellKnownCACertificates",
        bad ["/spec/validation/wellKnownCACertificates" => null],
        good [];
    btp_san_hostname_required: backend_tls_policy,
        "SubjectAltName element must contain Hostname, if Type is set to Hostname",
        bad ["/spec/validation/subjectAltNames" => [{"type": "Hostname"}]],
        good ["/spec/validation/subjectAltNames" => [{"type": "Hostname", "hostname": "a.example.com"}]];
    btp_san_hostname_only_for_hostname: backend_tls_policy,
        "SubjectAltName element must not contain Hostname, if Type is not set to Hostname",
        bad ["/spec/validation/subjectAltNames" => [{"type": "URI", "uri": "spiffe://a/b", "hostname": "a.example.com"}]],
        good ["/spec/validation/subjectAltNames" => [{"type": "URI", "uri": "spiffe://a/b"}]];
    btp_san_uri_required: backend_tls_policy,
        "SubjectAltName element must contain URI, if Type is set to URI",
        bad ["/spec/validation/subjectAltNames" => [{"type": "URI"}]],
        good ["/spec/validation/subjectAltNames" => [{"type": "URI", "uri": "spiffe://a/b"}]];
    btp_san_uri_only_for_uri: backend_tls_policy,
        "SubjectAltName element must not contain URI, if Type is not set to URI",
        bad ["/spec/validation/subjectAltNames" => [{"type": "Hostname", "hostname": "a.example.com", "uri": "spiffe://a/b"}]],
        good ["/spec/validation/subjectAltNames" => [{"type": "Hostname", "hostname": "a.example.com"}]];

    // ---- Gateway ----
    gateway_ip_addresses_unique: gateway, "IPAddress values must be unique",
        bad ["/spec/addresses" => [{"type": "IPAddress", "value": "10.0.0.1"}, {"type": "IPAddress", "value": "10.0.0.1"}]],
        good ["/spec/addresses" => [{"type": "IPAddress", "value": "10.0.0.1"}, {"type": "IPAddress", "value": "10.0.0.2"}]];
    gateway_hostname_addresses_unique: gateway, "Hostname values must be unique",
        bad ["/spec/addresses" => [{"type": "Hostname", "value": "lb.example.com"}, {"type": "Hostname", "value": "lb.example.com"}]],
        good ["/spec/addresses" => [{"type": "Hostname", "value": "lb.example.com"}, {"type": "Hostname", "value": "lb2.example.com"}]];
    gateway_hostname_address_valid: gateway,
        "Hostname value must be empty or contain only valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)",
        bad ["/spec/addresses" => [{"type": "Hostname", "value": "LB_1.example.com"}]],
        good ["/spec/addresses" => [{"type": "Hostname", "value": "lb-1.example.com"}]];
    gateway_infrastructure_annotation_key_form: gateway,
        "Annotation keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.",
        bad ["/spec/infrastructure/annotations" => {"-bad": "x"}],
        good ["/spec/infrastructure/annotations" => {"example.com/good": "x"}];
    gateway_infrastructure_annotation_prefix_length: gateway,
        "If specified, the annotation key's prefix must be a DNS subdomain not longer than 253 characters in total.",
        bad ["/spec/infrastructure/annotations" => {long_prefix(): "x"}],
        good ["/spec/infrastructure/annotations" => {"example.com/name": "x"}];
    gateway_infrastructure_label_key_form: gateway,
        "Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.",
        bad ["/spec/infrastructure/labels" => {"bad key": "x"}],
        good ["/spec/infrastructure/labels" => {"team": "x"}];
    gateway_infrastructure_label_prefix_length: gateway,
        "If specified, the label key's prefix must be a DNS subdomain not longer than 253 characters in total.",
        bad ["/spec/infrastructure/labels" => {long_prefix(): "x"}],
        good ["/spec/infrastructure/labels" => {"example.com/team": "x"}];
    gateway_no_tls_on_http: gateway, "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']",
        bad ["/spec/listeners/0/tls" => (CERT())],
        good ["/spec/listeners/0" => {"name": "https", "port": 443, "protocol": "HTTPS", "tls": CERT()}];
    gateway_https_terminates: gateway, "tls mode must be Terminate for protocol HTTPS",
        bad ["/spec/listeners/1" => {"name": "https", "port": 443, "protocol": "HTTPS", "hostname": "a.example.com", "tls": {"mode": "Passthrough"}}],
        good ["/spec/listeners/1" => {"name": "https", "port": 443, "protocol": "HTTPS", "hostname": "a.example.com", "tls": CERT()}];
    gateway_tls_mode_required_for_tls: gateway, "tls mode must be set for protocol TLS",
        bad ["/spec/listeners/1" => {"name": "tls", "port": 443, "protocol": "TLS", "hostname": "a.example.com"}],
        good ["/spec/listeners/1" => {"name": "tls", "port": 443, "protocol": "TLS", "hostname": "a.example.com", "tls": {"mode": "Passthrough"}}];
    gateway_no_hostname_on_tcp: gateway, "hostname must not be specified for protocols ['TCP', 'UDP']",
        bad ["/spec/listeners/1" => {"name": "db", "port": 5432, "protocol": "TCP", "hostname": "db.example.com"}],
        good ["/spec/listeners/1" => {"name": "db", "port": 5432, "protocol": "TCP"}];
    gateway_listener_names_unique: gateway, "Listener name must be unique within the Gateway",
        bad ["/spec/listeners/1" => {"name": "http", "port": 8080, "protocol": "HTTP"}],
        good ["/spec/listeners/1" => {"name": "http-alt", "port": 8080, "protocol": "HTTP"}];
    gateway_port_protocol_hostname_unique: gateway, "Combination of port, protocol and hostname must be unique for each listener",
        bad ["/spec/listeners/1" => {"name": "http2", "port": 80, "protocol": "HTTP"}],
        good ["/spec/listeners/1" => {"name": "http2", "port": 80, "protocol": "HTTP", "hostname": "a.example.com"}];
    gateway_terminate_needs_certificates_or_options: gateway, "certificateRefs or options must be specified when mode is Terminate",
        bad ["/spec/listeners/0" => {"name": "https", "port": 443, "protocol": "HTTPS", "tls": {"mode": "Terminate"}}],
        good ["/spec/listeners/0" => {"name": "https", "port": 443, "protocol": "HTTPS", "tls": {"mode": "Terminate", "options": {"example.com/cert": "vault"}}}];
    gateway_frontend_tls_ports_unique: gateway, "Port for TLS configuration must be unique within the Gateway",
        bad ["/spec/tls/frontend" => {"default": {"validation": {"caCertificateRefs": [{"group": "", "kind": "ConfigMap", "name": "ca"}]}},
            "perPort": [{"port": 443, "tls": {}}, {"port": 443, "tls": {}}]}],
        good ["/spec/tls/frontend" => {"default": {"validation": {"caCertificateRefs": [{"group": "", "kind": "ConfigMap", "name": "ca"}]}},
            "perPort": [{"port": 443, "tls": {}}, {"port": 8443, "tls": {}}]}];

    // ---- route parentRefs, limits, backendRefs (all route kinds share these) ----
    route_section_name_required_for_repeated_parent: http_route,
        "sectionName must be specified when parentRefs includes 2 or more references to the same parent",
        bad ["/spec/parentRefs/1" => {"name": "gw", "sectionName": "https"}],
        good ["/spec/parentRefs/0/sectionName" => "http", "/spec/parentRefs/1" => {"name": "gw", "sectionName": "https"}];
    route_section_name_unique_for_repeated_parent: http_route,
        "sectionName must be unique when parentRefs includes 2 or more references to the same parent",
        bad ["/spec/parentRefs/0/sectionName" => "http", "/spec/parentRefs/1" => {"name": "gw", "sectionName": "http"}],
        good ["/spec/parentRefs/0/sectionName" => "http", "/spec/parentRefs/1" => {"name": "gw", "namespace": "other", "sectionName": "http"}];
    route_total_matches_at_most_128: http_route,
        "While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128",
        bad ["/spec/rules/0/matches" => (matches_n(64)), "/spec/rules/1" => {"matches": matches_n(64), "backendRefs": [{"name": "svc", "port": 80}]},
             "/spec/rules/2" => {"matches": matches_n(1), "backendRefs": [{"name": "svc", "port": 80}]}],
        good ["/spec/rules/0/matches" => (matches_n(64)), "/spec/rules/1" => {"matches": matches_n(64), "backendRefs": [{"name": "svc", "port": 80}]}];
    route_service_backend_needs_port: http_route, "Must have port for Service reference",
        bad ["/spec/rules/0/backendRefs/0/port" => null],
        good ["/spec/rules/0/backendRefs/0" => {"group": "networking.istio.io", "kind": "Hostname", "name": "example.com"}];
    tcp_route_service_backend_needs_port: tcp_route, "Must have port for Service reference",
        bad ["/spec/rules/0/backendRefs/0/port" => null],
        good [];

    // ---- filters (HTTPRoute and GRPCRoute share the header/mirror/extensionRef ones) ----
    filter_request_header_modifier_not_repeated: http_route, "RequestHeaderModifier filter cannot be repeated",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR()}, {"type": "RequestHeaderModifier", "requestHeaderModifier": HDR()}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR()}]];
    filter_response_header_modifier_not_repeated: grpc_route, "ResponseHeaderModifier filter cannot be repeated",
        bad ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR()}, {"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR()}]],
        good ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR()}]];
    filter_request_header_modifier_only_for_its_type: http_route, "filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier",
        bad ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR(), "requestHeaderModifier": HDR()}]],
        good ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR()}]];
    filter_request_header_modifier_required_for_its_type: http_route, "filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier"}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR()}]];
    filter_response_header_modifier_only_for_its_type: http_route, "filter.responseHeaderModifier must be nil if the filter.type is not ResponseHeaderModifier",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR(), "responseHeaderModifier": HDR()}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR()}]];
    filter_response_header_modifier_required_for_its_type: http_route, "filter.responseHeaderModifier must be specified for ResponseHeaderModifier filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier"}]],
        good ["/spec/rules/0/filters" => [{"type": "ResponseHeaderModifier", "responseHeaderModifier": HDR()}]];
    filter_request_mirror_only_for_its_type: http_route, "filter.requestMirror must be nil if the filter.type is not RequestMirror",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR(), "requestMirror": MIRROR()}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": MIRROR()}]];
    filter_request_mirror_required_for_its_type: http_route, "filter.requestMirror must be specified for RequestMirror filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "RequestMirror"}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": MIRROR()}, {"type": "RequestMirror", "requestMirror": MIRROR()}]];
    filter_extension_ref_only_for_its_type: grpc_route, "filter.extensionRef must be nil if the filter.type is not ExtensionRef",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR(), "extensionRef": EXT()}]],
        good ["/spec/rules/0/filters" => [{"type": "ExtensionRef", "extensionRef": EXT()}]];
    filter_extension_ref_required_for_its_type: http_route, "filter.extensionRef must be specified for ExtensionRef filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "ExtensionRef"}]],
        good ["/spec/rules/0/filters" => [{"type": "ExtensionRef", "extensionRef": EXT()}]];
    mirror_percent_xor_fraction: http_route, "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter",
        bad ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "percent": 50, "fraction": {"numerator": 1}}}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "percent": 50}}]];
    mirror_fraction_at_most_one: http_route, "numerator must be less than or equal to denominator",
        bad ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "fraction": {"numerator": 150}}}]],
        good ["/spec/rules/0/filters" => [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "m", "port": 80}, "fraction": {"numerator": 1, "denominator": 1000}}}]];

    // ---- GRPCRoute method matches ----
    grpc_method_match_needs_service_or_method: grpc_route, "One or both of 'service' or 'method' must be specified",
        bad ["/spec/rules/0/matches/0/method" => {"type": "Exact"}],
        good ["/spec/rules/0/matches/0/method" => {"type": "Exact", "method": "Get"}];
    grpc_service_characters: grpc_route, "service must only contain valid characters (matching ^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$)",
        bad ["/spec/rules/0/matches/0/method" => {"service": "foo-bar"}],
        good ["/spec/rules/0/matches/0/method" => {"service": "foo_bar.V1"}];
    grpc_method_characters: grpc_route, "method must only contain valid characters (matching ^[A-Za-z_][A-Za-z_0-9]*$)",
        bad ["/spec/rules/0/matches/0/method" => {"method": "get-x"}],
        good ["/spec/rules/0/matches/0/method" => {"method": "GetX"}];

    // ---- HTTPRoute rules ----
    redirect_not_with_backend_refs: http_route, "RequestRedirect filter must not be used together with backendRefs",
        bad ["/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}]];
    redirect_prefix_match_needs_one_path_prefix: http_route,
        "When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        bad ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/matches" => (TWO_MATCHES()), "/spec/rules/0/filters" => [PREFIX_REDIRECT()]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/filters" => [PREFIX_REDIRECT()]];
    rewrite_prefix_match_needs_one_path_prefix: http_route,
        "When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        bad ["/spec/rules/0/matches" => [{"path": {"type": "Exact", "value": "/a"}}], "/spec/rules/0/filters" => [PREFIX_REWRITE()]],
        good ["/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/filters" => [PREFIX_REWRITE()]];
    backend_redirect_prefix_match_needs_one_path_prefix: http_route,
        "Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        bad ["/spec/rules/0/matches" => (TWO_MATCHES()), "/spec/rules/0/backendRefs/0/filters" => [PREFIX_REDIRECT()]],
        good ["/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/backendRefs/0/filters" => [PREFIX_REDIRECT()]];
    backend_rewrite_prefix_match_needs_one_path_prefix: http_route,
        "Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        bad ["/spec/rules/0/matches" => (TWO_MATCHES()), "/spec/rules/0/backendRefs/0/filters" => [PREFIX_REWRITE()]],
        good ["/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/backendRefs/0/filters" => [PREFIX_REWRITE()]];
    redirect_xor_rewrite: http_route, "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
        bad ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}, {"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}}]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}]];
    cors_not_repeated: http_route, "CORS filter cannot be repeated",
        bad ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS()}, {"type": "CORS", "cors": CORS()}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS()}]];
    redirect_not_repeated: http_route, "RequestRedirect filter cannot be repeated",
        bad ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 301}}, {"type": "RequestRedirect", "requestRedirect": {"statusCode": 302}}]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"statusCode": 308}}]];
    rewrite_not_repeated: http_route, "URLRewrite filter cannot be repeated",
        bad ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}}, {"type": "URLRewrite", "urlRewrite": {"hostname": "b.example.com"}}]],
        good ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}}]];
    filter_cors_only_for_its_type: http_route, "filter.cors must be nil if the filter.type is not CORS",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR(), "cors": CORS()}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS()}]];
    filter_cors_required_for_its_type: http_route, "filter.cors must be specified for CORS filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "CORS"}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS()}]];
    filter_redirect_only_for_its_type: http_route, "filter.requestRedirect must be nil if the filter.type is not RequestRedirect",
        bad ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}, "requestRedirect": {"statusCode": 301}}]],
        good ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}}]];
    filter_redirect_required_for_its_type: http_route, "filter.requestRedirect must be specified for RequestRedirect filter.type",
        bad ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect"}]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https"}}]];
    filter_rewrite_only_for_its_type: http_route, "filter.urlRewrite must be nil if the filter.type is not URLRewrite",
        bad ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS(), "urlRewrite": {"hostname": "a.example.com"}}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": CORS()}]];
    filter_rewrite_required_for_its_type: http_route, "filter.urlRewrite must be specified for URLRewrite filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "URLRewrite"}]],
        good ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"hostname": "a.example.com"}}]];
    cors_headers_wildcard_alone: http_route, "AllowHeaders cannot contain '*' alongside other methods",
        bad ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowHeaders": ["*", "x-a"]}}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowHeaders": ["*"]}}]];
    cors_methods_wildcard_alone: http_route, "AllowMethods cannot contain '*' alongside other methods",
        bad ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowMethods": ["*", "GET"]}}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowMethods": ["GET", "POST"]}}]];
    cors_origins_wildcard_alone: http_route, "AllowOrigins cannot contain '*' alongside other origins",
        bad ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowOrigins": ["*", "https://a.example.com"]}}]],
        good ["/spec/rules/0/filters" => [{"type": "CORS", "cors": {"allowOrigins": ["*"]}}]];
    path_modifier_full_path_value_required: http_route, "replaceFullPath must be specified when type is set to 'ReplaceFullPath'",
        bad ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath"}}}]],
        good ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replaceFullPath": "/x"}}}]];
    path_modifier_full_path_type: http_route, "type must be 'ReplaceFullPath' when replaceFullPath is set",
        bad ["/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x", "replaceFullPath": "/y"}}}]],
        good ["/spec/rules/0/matches" => (ONE_MATCH()), "/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}}]];
    path_modifier_prefix_value_required: http_route, "replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'",
        bad ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [{"type": "RequestRedirect", "requestRedirect": {"path": {"type": "ReplacePrefixMatch"}}}]],
        good ["/spec/rules/0/backendRefs" => null, "/spec/rules/0/filters" => [PREFIX_REDIRECT()]];
    path_modifier_prefix_type: http_route, "type must be 'ReplacePrefixMatch' when replacePrefixMatch is set",
        bad ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replaceFullPath": "/x", "replacePrefixMatch": "/y"}}}]],
        good ["/spec/rules/0/filters" => [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplaceFullPath", "replaceFullPath": "/x"}}}]];

    // ---- HTTPRoute path matches ----
    path_absolute: http_route, "value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "api"], good ["/spec/rules/0/matches/0/path/value" => "/api"];
    path_no_double_slash: http_route, "must not contain '//' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a//b"], good ["/spec/rules/0/matches/0/path/value" => "/a/b"];
    path_no_dot_segment: http_route, "must not contain '/./' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a/./b"], good ["/spec/rules/0/matches/0/path/value" => "/a/.b"];
    path_no_dot_dot_segment: http_route, "must not contain '/../' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a/../b"], good ["/spec/rules/0/matches/0/path/value" => "/a/..b"];
    path_no_encoded_slash_lower: http_route, "must not contain '%2f' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a%2fb"], good ["/spec/rules/0/matches/0/path/value" => "/a%20b"];
    path_no_encoded_slash_upper: http_route, "must not contain '%2F' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a%2Fb"], good ["/spec/rules/0/matches/0/path/value" => "/a%2Eb"];
    path_no_fragment: http_route, "must not contain '#' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a#b"], good ["/spec/rules/0/matches/0/path/value" => "/a~b"];
    path_no_trailing_dot_dot: http_route, "must not end with '/..' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a/.."], good ["/spec/rules/0/matches/0/path/value" => "/a/..b"];
    path_no_trailing_dot: http_route, "must not end with '/.' when type one of ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a/."], good ["/spec/rules/0/matches/0/path/value" => "/a/.b"];
    path_type_known: http_route, "type must be one of ['Exact', 'PathPrefix', 'RegularExpression']",
        bad ["/spec/rules/0/matches/0/path/type" => "Glob"], good ["/spec/rules/0/matches/0/path" => {"type": "RegularExpression", "value": "/a.*"}];
    path_valid_characters: http_route,
        "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']",
        bad ["/spec/rules/0/matches/0/path/value" => "/a b"], good ["/spec/rules/0/matches/0/path/value" => "/a@b:c"];
    backend_timeout_within_request_timeout: http_route, "backendRequest timeout cannot be longer than request timeout",
        bad ["/spec/rules/0/timeouts" => {"request": "1s", "backendRequest": "2s"}],
        good ["/spec/rules/0/timeouts" => {"request": "0s", "backendRequest": "2s"}];

    // ---- TLSRoute hostnames ----
    tls_route_hostnames_not_ip: tls_route, "Hostnames cannot contain an IP",
        bad ["/spec/hostnames" => ["10.0.0.1"]], good ["/spec/hostnames" => ["a.example.com", "b.example.com"]];
    tls_route_hostnames_rfc1123: tls_route, "Hostnames must be valid based on RFC-1123",
        bad ["/spec/hostnames" => ["A_b.example.com"]], good ["/spec/hostnames" => ["a-b.example.com"]];
    tls_route_wildcard_first_label: tls_route,
        "Wildcards on hostnames must be the first label, and the rest of hostname must be valid based on RFC-1123",
        bad ["/spec/hostnames" => ["a.*.example.com"]], good ["/spec/hostnames" => ["*.example.com"]];
}

experimental_rules! {
    exp_session_permanent_needs_absolute_timeout: http_route,
        "AbsoluteTimeout must be specified when cookie lifetimeType is Permanent",
        bad ["/spec/rules/0/sessionPersistence" => {"type": "Cookie", "cookieConfig": {"lifetimeType": "Permanent"}}],
        good ["/spec/rules/0/sessionPersistence" => {"type": "Cookie", "absoluteTimeout": "1h", "cookieConfig": {"lifetimeType": "Permanent"}}];
    exp_session_cookie_config_only_for_cookies: grpc_route, "cookieConfig can only be set with type Cookie",
        bad ["/spec/rules/0/sessionPersistence" => {"type": "Header", "sessionName": "s", "cookieConfig": {"lifetimeType": "Session"}}],
        good ["/spec/rules/0/sessionPersistence" => {"type": "Cookie", "cookieConfig": {"lifetimeType": "Session"}}];
    exp_rule_names_unique: http_route, "Rule name must be unique within the route",
        bad ["/spec/rules/0/name" => "a", "/spec/rules/1" => {"name": "a", "backendRefs": [{"name": "svc", "port": 80}]}],
        good ["/spec/rules/0/name" => "a", "/spec/rules/1" => {"name": "b", "backendRefs": [{"name": "svc", "port": 80}]}];
    exp_external_auth_only_for_its_type: http_route, "filter.externalAuth must be nil if the filter.type is not ExternalAuth",
        bad ["/spec/rules/0/filters" => [{"type": "RequestHeaderModifier", "requestHeaderModifier": HDR(),
            "externalAuth": {"protocol": "HTTP", "http": {}, "backendRef": {"name": "auth", "port": 8080}}}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth",
            "externalAuth": {"protocol": "HTTP", "http": {}, "backendRef": {"name": "auth", "port": 8080}}}]];
    exp_external_auth_required_for_its_type: http_route, "filter.externalAuth must be specified for ExternalAuth filter.type",
        bad ["/spec/rules/0/filters" => [{"type": "ExternalAuth"}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth",
            "externalAuth": {"protocol": "GRPC", "grpc": {}, "backendRef": {"name": "auth", "port": 9000}}}]];
    exp_external_auth_grpc_config: http_route, "grpc must be specified when protocol is set to 'GRPC'",
        bad ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "GRPC", "backendRef": {"name": "auth", "port": 9000}}}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "GRPC", "grpc": {"allowedHeaders": ["x-user"]}, "backendRef": {"name": "auth", "port": 9000}}}]];
    exp_external_auth_http_config: http_route, "http must be specified when protocol is set to 'HTTP'",
        bad ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "HTTP", "backendRef": {"name": "auth", "port": 8080}}}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "HTTP", "http": {"path": "/auth"}, "backendRef": {"name": "auth", "port": 8080}}}]];
    exp_external_auth_grpc_protocol: http_route, "protocol must be 'GRPC' when grpc is set",
        bad ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "HTTP", "http": {}, "grpc": {}, "backendRef": {"name": "auth", "port": 8080}}}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "GRPC", "grpc": {}, "backendRef": {"name": "auth", "port": 8080}}}]];
    exp_external_auth_http_protocol: http_route, "protocol must be 'HTTP' when http is set",
        bad ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "GRPC", "grpc": {}, "http": {}, "backendRef": {"name": "auth", "port": 8080}}}]],
        good ["/spec/rules/0/filters" => [{"type": "ExternalAuth", "externalAuth": {"protocol": "HTTP", "http": {}, "backendRef": {"name": "auth", "port": 8080}}}]];
    exp_section_name_or_port_required_for_repeated_parent: http_route,
        "sectionName or port must be specified when parentRefs includes 2 or more references to the same parent",
        bad ["/spec/parentRefs/1" => {"name": "gw", "port": 443}],
        good ["/spec/parentRefs/0/port" => 80, "/spec/parentRefs/1" => {"name": "gw", "port": 443}];
    exp_section_name_or_port_unique_for_repeated_parent: http_route,
        "sectionName or port must be unique when parentRefs includes 2 or more references to the same parent",
        bad ["/spec/parentRefs/0/port" => 80, "/spec/parentRefs/1" => {"name": "gw", "port": 80}],
        good ["/spec/parentRefs/0/port" => 80, "/spec/parentRefs/1" => {"name": "gw", "port": 443}];
}

/// Every CEL message of the emitted kinds' standard-channel CRDs (served `v1`; transition
/// rules and `status` excluded) has a test above.
#[test]
fn every_rule_has_a_test() {
    fn walk(schema: &Value, path: &str, out: &mut BTreeSet<String>) {
        if path == ".status" {
            return;
        }
        for r in cel::rules_of(schema) {
            if !cel::is_transition_rule(&r.rule) {
                out.insert(r.message);
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, sub) in props {
                walk(sub, &format!("{path}.{k}"), out);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(sub) = schema.get(key).filter(|s| s.is_object()) {
                walk(sub, path, out);
            }
        }
    }
    let mut messages = BTreeSet::new();
    for kind in [
        "Gateway",
        "HTTPRoute",
        "GRPCRoute",
        "TLSRoute",
        "TCPRoute",
        "BackendTLSPolicy",
    ] {
        let v = crd::catalog(Channel::Standard)
            .get("gateway.networking.k8s.io/v1", kind)
            .unwrap();
        walk(&v.schema, "", &mut messages);
    }
    let tested: BTreeSet<String> = TESTED.iter().map(|s| s.to_string()).collect();
    let missing: Vec<_> = messages.difference(&tested).collect();
    assert!(missing.is_empty(), "rules without a test: {missing:#?}");
    assert!(messages.len() >= 75, "{}", messages.len());
}

/// Every CEL message of the emitted kinds' experimental-channel CRDs has a test (on the
/// standard channel when the standard CRD has the rule too, else on experimental).
#[test]
fn every_experimental_rule_has_a_test() {
    fn walk(schema: &Value, path: &str, out: &mut BTreeSet<String>) {
        if path == ".status" {
            return;
        }
        for r in cel::rules_of(schema) {
            if !cel::is_transition_rule(&r.rule) {
                out.insert(r.message);
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, sub) in props {
                walk(sub, &format!("{path}.{k}"), out);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(sub) = schema.get(key).filter(|s| s.is_object()) {
                walk(sub, path, out);
            }
        }
    }
    let mut messages = BTreeSet::new();
    for kind in [
        "Gateway",
        "HTTPRoute",
        "GRPCRoute",
        "TLSRoute",
        "TCPRoute",
        "BackendTLSPolicy",
    ] {
        let v = crd::catalog(Channel::Experimental)
            .get("gateway.networking.k8s.io/v1", kind)
            .unwrap();
        walk(&v.schema, "", &mut messages);
    }
    let tested: BTreeSet<String> = TESTED
        .iter()
        .chain(TESTED_EXPERIMENTAL)
        .map(|s| s.to_string())
        .collect();
    let missing: Vec<_> = messages.difference(&tested).collect();
    assert!(missing.is_empty(), "rules without a test: {missing:#?}");
}

/// An oversized list is rejected on its size alone: the CEL rules (some quadratic in the list
/// length) are not evaluated on it, as the API server would not evaluate them either.
#[test]
fn oversized_listener_lists_are_rejected_without_evaluating_cel() {
    let listeners: Vec<serde_json::Value> = (0..2000)
        .map(|i| serde_json::json!({"name": "same", "port": 80, "protocol": "HTTP", "hostname": format!("h{i}.example.com")}))
        .collect();
    let gateway = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"gatewayClassName": "istio", "listeners": listeners}
    });
    let started = std::time::Instant::now();
    let violations = gateway_migrate::validate::validate_object(
        &gateway,
        gateway_migrate::config::Channel::Standard,
    );
    assert!(
        violations.iter().any(|v| v.rule == "schema/maxItems"),
        "{violations:?}"
    );
    assert!(
        !violations
            .iter()
            .any(|v| v.message.contains("Listener name must be unique")),
        "CEL was evaluated on an oversized list"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}
