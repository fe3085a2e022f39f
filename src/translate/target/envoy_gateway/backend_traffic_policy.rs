//! Envoy Gateway's BackendTrafficPolicy (envoyproxy/gateway v1.9.0,
//! `api/v1alpha1/backendtrafficpolicy_types.go`): one per source, on its routes, keeping what
//! the source's data plane did with backends where Envoy Gateway's defaults differ
//! ([`BackendSettings`]).
//!
//! **Timeouts.** A rule without `timeouts.request` gets no timeout on its Envoy route
//! (`internal/xds/translator/route.go` `getEffectiveRequestTimeout`), so Envoy's
//! `RouteAction.timeout` default, 15 s, cuts every request still running then; ingress-nginx
//! and Istio had no request timeout (nginx limits the time between two reads or writes;
//! Istio's `setTimeout` disables the route timeout). So every rule that forwards and sets no
//! request timeout gets `timeouts.request: 0s` (Gateway API `HTTPRouteTimeouts`: zero disables
//! the timeout), and the policy sets `requestTimeout: 0s` (`timeout_types.go`; a GRPCRoute has
//! no `timeouts` field; a route's own timeout comes first anyway). A disabled request timeout
//! also disables the route's stream idle timeout (`route.go` `idleTimeout`), so the policy
//! restores the source's: ingress-nginx's `proxy-read-timeout` / `proxy-send-timeout` (60 s
//! by default; nginx's limit between two reads or writes is what an idle stream is); Istio's
//! gateways have none (`pilot/pkg/networking/core/listener_builder.go`
//! `buildHTTPConnectionManager` sets `StreamIdleTimeout` to 0 unless the proxy's connection
//! settings say otherwise), so nothing is restored for them; and ingress-nginx's
//! `proxy-connect-timeout` (5 s by default; Envoy Gateway's is 10 s) as
//! `timeout.tcp.connectTimeout`.
//!
//! **Retries.** Envoy Gateway retries nothing unless told (`route.go` sets a retry policy only
//! when the route or a policy has one, `ir.HTTPRoute.GetRetry`); ingress-nginx retried a
//! failed connection on another endpoint (`proxy_next_upstream error timeout`, three tries)
//! and Istio applied its default policy. The policy's `retry` (`retry_types.go`) keeps them;
//! Envoy Gateway adds the previous-hosts predicate (`route.go` `buildRetryPolicy`), so a retry
//! goes to another endpoint, as nginx's did. A rule's own `retry` comes first (`GetRetry`).
//!
//! **Load balancing.** `loadBalancer` (`loadbalancer_types.go`): round robin, least request,
//! or a consistent hash of the client address, a header, a query parameter or a cookie; a
//! cookie with a `ttl` is set by Envoy when the request has none (`route.go`
//! `buildHashPolicy`; Envoy makes a `0s` one a session cookie), which is session affinity.

use std::collections::BTreeMap;

use serde::Serialize;

use super::super::backend::{
    BackendSettings, Balancing, BalancingPlan, CircuitBreaker, OutlierDetection, RateLimit, Retry,
};
use super::super::{ExistingPolicy, Namer, RouteScope};
use super::{API_VERSION, TargetRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Generated, HttpRouteTimeouts, Metadata, Object};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    target_refs: Vec<TargetRef>,
    timeout: Timeout,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry: Option<RetrySpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    load_balancer: Option<LoadBalancer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rate_limit: Option<RateLimitSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    circuit_breaker: Option<CircuitBreakerSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    health_check: Option<HealthCheckSpec>,
}

#[derive(Debug, Serialize)]
struct Timeout {
    #[serde(skip_serializing_if = "Option::is_none")]
    tcp: Option<TcpTimeout>,
    http: HttpTimeout,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TcpTimeout {
    connect_timeout: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HttpTimeout {
    request_timeout: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_idle_timeout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    connection_idle_timeout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_connection_duration: Option<String>,
}

/// `circuit_breaker_types.go` `CircuitBreaker`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CircuitBreakerSpec {
    max_connections: u32,
    max_pending_requests: u32,
    max_parallel_requests: u32,
    max_parallel_retries: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_requests_per_connection: Option<u32>,
}

impl CircuitBreakerSpec {
    fn of(c: &CircuitBreaker) -> CircuitBreakerSpec {
        CircuitBreakerSpec {
            max_connections: c.max_connections,
            max_pending_requests: c.max_pending_requests,
            max_parallel_requests: c.max_parallel_requests,
            max_parallel_retries: c.max_parallel_retries,
            max_requests_per_connection: c.max_requests_per_connection,
        }
    }
}

/// `healthcheck_types.go` `HealthCheck` with `passive` (Envoy's outlier detection).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HealthCheckSpec {
    passive: PassiveSpec,
    panic_threshold: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PassiveSpec {
    #[serde(
        rename = "consecutive5XxErrors",
        skip_serializing_if = "Option::is_none"
    )]
    consecutive_5xx_errors: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    consecutive_gateway_errors: Option<u32>,
    interval: String,
    base_ejection_time: String,
    max_ejection_percent: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    split_external_local_origin_errors: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    consecutive_local_origin_failures: Option<u32>,
}

impl HealthCheckSpec {
    fn of(o: &OutlierDetection) -> HealthCheckSpec {
        HealthCheckSpec {
            passive: PassiveSpec {
                consecutive_5xx_errors: o.consecutive_5xx,
                consecutive_gateway_errors: o.consecutive_gateway_errors,
                interval: o.interval.clone(),
                base_ejection_time: o.base_ejection_time.clone(),
                max_ejection_percent: o.max_ejection_percent,
                split_external_local_origin_errors: o.local_origin_failures.is_some(),
                consecutive_local_origin_failures: o.local_origin_failures,
            },
            panic_threshold: o.panic_threshold,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RetrySpec {
    num_retries: u32,
    retry_on: RetryOnSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_retry: Option<PerRetry>,
}

/// `retry_types.go` `PerRetryPolicy`.
#[derive(Debug, Serialize)]
struct PerRetry {
    timeout: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RetryOnSpec {
    triggers: Vec<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    http_status_codes: Vec<u16>,
}

impl RetrySpec {
    fn of(r: &Retry) -> RetrySpec {
        RetrySpec {
            num_retries: r.retries,
            retry_on: RetryOnSpec {
                triggers: r.on.iter().map(|t| t.envoy_name()).collect(),
                http_status_codes: r.status_codes.clone(),
            },
            per_retry: r
                .per_try_timeout
                .clone()
                .map(|timeout| PerRetry { timeout }),
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LoadBalancer {
    #[serde(rename = "type")]
    type_: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    consistent_hash: Option<ConsistentHash>,
    /// `loadbalancer_types.go` `SlowStart` (round robin and least request only, by CEL).
    #[serde(skip_serializing_if = "Option::is_none")]
    slow_start: Option<SlowStart>,
}

#[derive(Debug, Serialize)]
struct SlowStart {
    window: String,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct ConsistentHash {
    #[serde(rename = "type")]
    type_: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    headers: Vec<Named>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    query_params: Vec<Named>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cookie: Option<Cookie>,
}

#[derive(Debug, Serialize)]
struct Named {
    name: String,
}

#[derive(Debug, Serialize)]
struct Cookie {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    attributes: BTreeMap<String, String>,
}

impl LoadBalancer {
    fn of(plan: &BalancingPlan) -> LoadBalancer {
        let slow_start = plan.slow_start.clone().map(|window| SlowStart { window });
        let plain = |type_| LoadBalancer {
            type_,
            consistent_hash: None,
            slow_start,
        };
        let hash = |h: ConsistentHash| LoadBalancer {
            type_: "ConsistentHash",
            consistent_hash: Some(h),
            slow_start: None,
        };
        let named = |name: &String| vec![Named { name: name.clone() }];
        match &plan.balancing {
            Balancing::RoundRobin => plain("RoundRobin"),
            Balancing::LeastRequest => plain("LeastRequest"),
            Balancing::Random => LoadBalancer {
                type_: "Random",
                consistent_hash: None,
                slow_start: None,
            },
            Balancing::HashSourceIp => hash(ConsistentHash {
                type_: "SourceIP",
                ..Default::default()
            }),
            // `header` is deprecated for `headers` (`loadbalancer_types.go` `ConsistentHash`).
            Balancing::HashHeader(name) => hash(ConsistentHash {
                type_: "Headers",
                headers: named(name),
                ..Default::default()
            }),
            Balancing::HashQueryParam(name) => hash(ConsistentHash {
                type_: "QueryParams",
                query_params: named(name),
                ..Default::default()
            }),
            Balancing::HashCookie {
                name,
                ttl,
                attributes,
            } => hash(ConsistentHash {
                type_: "Cookie",
                cookie: Some(Cookie {
                    name: name.clone(),
                    ttl: ttl.clone(),
                    attributes: attributes.iter().cloned().collect(),
                }),
                ..Default::default()
            }),
        }
    }
}

#[derive(Debug, Serialize)]
struct RateLimitSpec {
    local: LocalRateLimit,
}

#[derive(Debug, Serialize)]
struct LocalRateLimit {
    rules: Vec<RateLimitRule>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RateLimitRule {
    client_selectors: Vec<ClientSelector>,
    limit: Limit,
}

#[derive(Debug, Serialize)]
struct ClientSelector {
    #[serde(rename = "sourceCIDR")]
    source_cidr: SourceCidr,
}

#[derive(Debug, Serialize)]
struct SourceCidr {
    #[serde(rename = "type")]
    type_: &'static str,
    value: String,
}

#[derive(Debug, Serialize)]
struct Limit {
    requests: u32,
    unit: &'static str,
}

impl RateLimitSpec {
    /// One rule per limit and counted range, each client of the range counted apart
    /// (`Distinct`; a rule holds one source CIDR, `buildRateLimitRule`).
    fn of(r: &RateLimit) -> RateLimitSpec {
        let rules = r
            .limits
            .iter()
            .flat_map(|(requests, unit)| {
                r.counted.iter().map(move |range| RateLimitRule {
                    client_selectors: vec![ClientSelector {
                        source_cidr: SourceCidr {
                            type_: "Distinct",
                            value: range.clone(),
                        },
                    }],
                    limit: Limit {
                        requests: *requests,
                        unit: unit.envoy_name(),
                    },
                })
            })
            .collect();
        RateLimitSpec {
            local: LocalRateLimit { rules },
        }
    }
}

/// Disables the 15 s default on the forwarding rules of `generated` (all from the source
/// named `source` in its namespace) and, with `names` (Envoy Gateway's own resources may be
/// written), writes the BackendTrafficPolicy keeping the source's other timeouts, its retries
/// and its load balancing; the notes say what was kept. The portable output (`generic`) gets
/// the rules' `0s` only: implementations that honour it (Envoy Gateway among them) then keep
/// no request timeout either.
pub(crate) fn keep(
    generated: &mut Vec<Generated>,
    source: &str,
    kept: &BackendSettings,
    names: Option<&mut Namer>,
    existing: &[ExistingPolicy],
) -> Vec<Diagnostic> {
    let routes: Vec<RouteScope> = generated.iter().filter_map(RouteScope::of).collect();
    let Some(namespace) = routes.first().map(|r| r.namespace.clone()) else {
        return Vec::new();
    };
    let mut disabled = 0;
    for g in generated.iter_mut() {
        let Generated::HttpRoute(o) = g else { continue };
        for rule in &mut o.spec.rules {
            if rule.backend_refs.is_empty() {
                continue;
            }
            let timeouts = rule.timeouts.get_or_insert_with(HttpRouteTimeouts::default);
            if timeouts.request.is_none() {
                timeouts.request = Some("0s".into());
                disabled += 1;
            }
        }
    }
    let Some(names) = names else {
        return (disabled > 0)
            .then(|| {
                Diagnostic::new(
                    Code::TargetTimeoutsKept,
                    format!(
                        "{} set no request timeout: {disabled} rule(s) get timeouts.request 0s, which disables it (some implementations, Envoy Gateway among them, end a request after 15 s without it; Envoy Gateway then also stops timing idle streams)",
                        kept.data_plane
                    ),
                )
            })
            .into_iter()
            .collect();
    };
    // One BackendTrafficPolicy per route: Envoy Gateway keeps the oldest and marks a second
    // Conflicted (`internal/gatewayapi/backendtrafficpolicy.go`), so with one of the
    // repository's on a route none is written; the rules' 0s holds either way.
    if let Some(p) = existing
        .iter()
        .find(|p| p.kind == "BackendTrafficPolicy" && routes.iter().any(|r| p.on_route(r)))
    {
        let mut also = Vec::new();
        if let Some(r) = &kept.retry {
            also.push(format!("its retries ({})", describe_retry(r)));
        }
        if let Some(b) = &kept.balancing {
            also.push(format!("its load balancing ({})", b.balancing.describe()));
        }
        if let Some(r) = &kept.rate_limit {
            also.push(format!("its rate limit ({})", r.source));
        }
        if let Some(c) = &kept.circuit_breaker {
            also.push(format!("its circuit breaker limits ({})", c.source));
        }
        if let Some(d) = &kept.destination {
            also.push(format!("{}'s {}", d.source, d.fields.join(", ")));
        }
        return vec![Diagnostic::new(
            Code::TargetTimeoutsKept,
            format!(
                "Envoy Gateway would end every request after 15 s (its route default), where {} set no request timeout: {disabled} rule(s) get timeouts.request 0s; BackendTrafficPolicy {}/{} of the repository already targets {} {}, so no other is written: give it the source's idle ({}) and connect timeouts if it lacks them{}",
                kept.data_plane,
                p.namespace,
                p.name,
                p.target_kind,
                p.target_name,
                kept.stream_idle.as_deref().unwrap_or("none"),
                if also.is_empty() {
                    String::new()
                } else {
                    format!(", and {}", also.join(" and "))
                }
            ),
        )];
    }
    let name = names(&namespace, "BackendTrafficPolicy", source);
    let spec = Spec {
        target_refs: routes
            .iter()
            .filter(|r| r.namespace == namespace)
            .map(TargetRef::route)
            .collect(),
        timeout: Timeout {
            tcp: kept
                .connect
                .clone()
                .map(|connect_timeout| TcpTimeout { connect_timeout }),
            http: HttpTimeout {
                request_timeout: "0s".into(),
                stream_idle_timeout: kept.stream_idle.clone(),
                connection_idle_timeout: kept
                    .destination
                    .as_ref()
                    .and_then(|d| d.idle_timeout.clone()),
                max_connection_duration: kept
                    .destination
                    .as_ref()
                    .and_then(|d| d.max_connection_duration.clone()),
            },
        },
        retry: kept.retry.as_ref().map(RetrySpec::of),
        load_balancer: kept.balancing.as_ref().map(LoadBalancer::of),
        rate_limit: kept.rate_limit.as_ref().map(RateLimitSpec::of),
        circuit_breaker: kept.circuit_breaker.as_ref().map(CircuitBreakerSpec::of),
        health_check: kept
            .destination
            .as_ref()
            .and_then(|d| d.outlier.as_ref())
            .map(HealthCheckSpec::of),
    };
    generated.push(Generated::Policy(Object::new(
        API_VERSION,
        "BackendTrafficPolicy",
        Metadata::new(name.clone(), namespace.clone()),
        serde_json::to_value(&spec).unwrap_or_default(),
    )));
    let policy = format!("BackendTrafficPolicy {namespace}/{name}");
    let mut notes = vec![Diagnostic::new(
        Code::TargetTimeoutsKept,
        format!(
            "Envoy Gateway would end every request after 15 s (its route default), where {} set no request timeout: {disabled} rule(s) get timeouts.request 0s, and {policy} keeps {}{}",
            kept.data_plane,
            kept.stream_idle.as_ref().map_or(
                "no stream idle timeout (as before)".to_string(),
                |t| format!("the stream idle timeout at {t}")
            ),
            kept.connect
                .as_ref()
                .map(|c| format!(" and the connect timeout at {c}"))
                .unwrap_or_default()
        ),
    )];
    if let Some(r) = &kept.retry {
        let what = format!(
            "{} retried {}; Envoy Gateway retries nothing by default, so {policy} retries {}",
            kept.data_plane,
            r.source,
            describe_retry(r)
        );
        notes.push(kept_or_approximate(
            (Code::TargetRetriesKept, Code::TargetRetriesApproximate),
            what,
            &r.differences,
        ));
    }
    if let Some(b) = &kept.balancing {
        let what = format!(
            "{} chose backend endpoints by {}: {policy} sets loadBalancer {}",
            kept.data_plane,
            b.source,
            summary(b)
        );
        notes.push(kept_or_approximate(
            (
                Code::TargetLoadBalancingKept,
                Code::TargetLoadBalancingApproximate,
            ),
            what,
            &b.differences,
        ));
    }
    if let Some(c) = &kept.circuit_breaker {
        let limit = |n: u32| {
            if n == u32::MAX {
                "no limit".to_string()
            } else {
                n.to_string()
            }
        };
        notes.push(Diagnostic::new(
            Code::TargetCircuitBreaker,
            format!(
                "Envoy Gateway would refuse (503) a backend's requests beyond 1024 at once per replica (its default circuit breaker); {}: {policy} sets connections {}, pending requests {}, parallel requests {}, parallel retries {}{}",
                c.source,
                limit(c.max_connections),
                limit(c.max_pending_requests),
                limit(c.max_parallel_requests),
                limit(c.max_parallel_retries),
                c.max_requests_per_connection
                    .map(|n| format!(", {n} requests per connection"))
                    .unwrap_or_default()
            ),
        ));
    }
    if let Some(d) = &kept.destination {
        let what = format!(
            "{} applied {} to this traffic: {policy} keeps them",
            d.source,
            d.fields.join(", ")
        );
        notes.push(kept_or_approximate(
            (
                Code::TargetDestinationRuleKept,
                Code::TargetDestinationRuleApproximate,
            ),
            what,
            &d.differences,
        ));
    }
    if let Some(r) = &kept.rate_limit {
        notes.push(Diagnostic::new(
            Code::TargetRateLimit,
            format!(
                "{} limited {}: {policy} sets a local rateLimit counting each client address ({} rule(s)), but {}",
                kept.data_plane,
                r.source,
                r.limits.len() * r.counted.len(),
                r.differences.join("; ")
            ),
        ));
    }
    notes
}

/// The note for a setting kept (`codes.0`), or kept with `differences` (`codes.1`).
fn kept_or_approximate(codes: (Code, Code), what: String, differences: &[String]) -> Diagnostic {
    if differences.is_empty() {
        Diagnostic::new(codes.0, what)
    } else {
        Diagnostic::new(codes.1, format!("{what}, but {}", differences.join("; ")))
    }
}

/// The written `loadBalancer`, in a few words.
fn summary(plan: &BalancingPlan) -> String {
    let lb = LoadBalancer::of(plan);
    let Some(hash) = lb.consistent_hash else {
        return match lb.slow_start {
            Some(s) => format!("type {} with a slow start of {}", lb.type_, s.window),
            None => format!("type {}", lb.type_),
        };
    };
    let on = match (
        &hash.cookie,
        hash.headers.first(),
        hash.query_params.first(),
    ) {
        (Some(c), _, _) => {
            let mut what = format!("cookie {}", c.name);
            match c.ttl.as_deref() {
                Some("0s") => what.push_str(", set by Envoy as a session cookie"),
                Some(ttl) => what.push_str(&format!(", set by Envoy for {ttl}")),
                None => {}
            }
            for (k, v) in &c.attributes {
                what.push_str(&if v.is_empty() {
                    format!(", {k}")
                } else {
                    format!(", {k}={v}")
                });
            }
            what
        }
        (None, Some(h), _) => format!("header {}", h.name),
        (None, None, Some(q)) => format!("query parameter {}", q.name),
        (None, None, None) => "the client address".to_string(),
    };
    format!("ConsistentHash on {on}")
}

/// A retry policy in a few words.
fn describe_retry(r: &Retry) -> String {
    let mut on: Vec<&str> = r.on.iter().map(|t| t.envoy_name()).collect();
    let codes: Vec<String> = r.status_codes.iter().map(u16::to_string).collect();
    if !codes.is_empty() {
        on.push("status");
    }
    format!(
        "up to {} time(s) on {}{}",
        r.retries,
        on.join(", "),
        if codes.is_empty() {
            String::new()
        } else {
            format!(" {}", codes.join(", "))
        }
    )
}
