//! For a target other than Istio, what Istio's gateway did with each VirtualService's backends
//! that the target does differently, written as the target's backend policy
//! (`target::envoy_gateway::backend_traffic_policy`) once every route exists:
//!
//! - no request timeout (`pilot/pkg/networking/core/route/route.go` `setTimeout`) and no stream
//!   idle timeout (`listener_builder.go` `buildHTTPConnectionManager`);
//! - its default retries (`default_retries`);
//! - circuit breaker thresholds at their largest (`cluster_traffic_policy.go`
//!   `getDefaultCircuitBreakerThresholds`) unless a DestinationRule's `connectionPool` sets one;
//! - the DestinationRule the gateway chose for the backend (`push_context.go`
//!   `destinationRule`: the proxy's namespace, then the Service's, then the root namespace):
//!   its `loadBalancer`, `connectionPool` and `outlierDetection` (`cluster_traffic_policy.go`
//!   `applyLoadBalancer`, `applyConnectionPool`, `applyOutlierDetection`). A policy covers a
//!   whole route, so this needs every backend of the VirtualService's routes to get the same
//!   DestinationRule settings; otherwise the VirtualService gets a note and the DestinationRule
//!   keeps its `istio/traffic-policy-lost`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Ctx;
use super::hosts::{self, HostKind};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::Generated;
use crate::model::SourceBody;
use crate::model::istio::DestinationRule;
use crate::translate::SourceResult;
use crate::translate::target::backend::{
    BackendSettings, Balancing, BalancingPlan, CircuitBreaker, DestinationSettings,
    OutlierDetection,
};

/// The traffic policy fields carried for Envoy Gateway.
const CARRIED: [&str; 3] = ["loadBalancer", "connectionPool", "outlierDetection"];

/// What the traffic policy Istio's gateway applied to one backend becomes.
#[derive(Debug, Clone, PartialEq)]
struct FromRule {
    /// `(namespace, name)` of the DestinationRule, when one applied (else only the mesh's
    /// `defaultTrafficPolicy`).
    rule: Option<(String, String)>,
    /// The DestinationRule's field the carried blocks are under (`spec.trafficPolicy`, or a
    /// `portLevelSettings` entry).
    path: String,
    balancing: Option<BalancingPlan>,
    circuit_breaker: Option<CircuitBreaker>,
    connect: Option<String>,
    destination: DestinationSettings,
}

/// Writes each VirtualService's backend policy (module docs).
pub(super) fn keep(ctx: &Ctx, results: &mut [SourceResult]) {
    use crate::translate::ingress::names::{self, NameAllocator};
    use crate::translate::target::envoy_gateway::backend_traffic_policy;
    let index = ctx.index;
    // The repository's own BackendTrafficPolicies keep their names.
    let mut allocator = NameAllocator::default();
    for o in index
        .objects
        .iter()
        .filter(|o| o.kind == "BackendTrafficPolicy")
    {
        allocator.reserve(&o.namespace, &o.kind, &o.meta.name);
    }
    let mut namer = |ns: &str, kind: &str, wanted: &str| {
        // A VirtualService's name is already a valid object name.
        allocator.allocate(ns, kind, wanted, names::MAX_NAME)
    };
    let existing = crate::translate::target::envoy_policies(index);
    let default_mesh = crate::controllers::IstioMesh {
        source: crate::controllers::ConfigSource::Assumed,
        mesh: Value::Null,
    };
    let mesh = index.istio_mesh().unwrap_or(&default_mesh);
    let envoy_gateway = ctx.config.target == crate::config::Target::EnvoyGateway;
    // DestinationRules whose settings every VirtualService reaching them carried, and those
    // some could not.
    let mut carried: BTreeSet<((String, String), String)> = BTreeSet::new();
    let mut lost: BTreeSet<(String, String)> = BTreeSet::new();
    for r in results.iter_mut() {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        let SourceBody::VirtualService(vs) = &obj.body else {
            continue;
        };
        let mut kept = BackendSettings {
            data_plane: "Istio",
            ..Default::default()
        };
        let forwards = r
            .generated
            .iter()
            .any(|g| crate::translate::target::RouteScope::of(g).is_some());
        if envoy_gateway && forwards {
            match super::default_retries::of(&routes_of(index, obj, vs), mesh) {
                Ok(retry) => kept.retry = retry,
                Err(why) => r.notes.push(Diagnostic::new(
                    Code::IstioMeshDefaultRetries,
                    format!(
                        "Istio retried the routes without retries of their own; Envoy Gateway retries nothing unless told, and no BackendTrafficPolicy retry was written: {why}"
                    ),
                )),
            }
            kept.circuit_breaker = Some(CircuitBreaker::unlimited(
                "Istio's default thresholds (no limit)",
            ));
            note_route_retries(&r.generated, &mut r.notes);
            match destination_settings(ctx, &r.generated) {
                Ok(None) => {}
                Ok(Some(d)) => {
                    carried.extend(d.rule.clone().map(|k| (k, d.path.clone())));
                    kept.balancing = d.balancing;
                    if let Some(cb) = d.circuit_breaker {
                        kept.circuit_breaker = Some(cb);
                    }
                    kept.connect = d.connect;
                    kept.destination = Some(d.destination);
                }
                Err((rules, why)) => {
                    lost.extend(rules);
                    if let Some(cb) = kept.circuit_breaker.as_mut() {
                        cb.source = "Istio's default thresholds (no limit); the DestinationRules' connectionPool is not carried".into();
                    }
                    r.notes.push(Diagnostic::new(
                        Code::TargetDestinationRuleApproximate,
                        format!(
                            "the DestinationRules of this VirtualService's backends are not written for Envoy Gateway: {why}; their load balancing, connection pool and outlier detection no longer apply"
                        ),
                    ));
                }
            }
        }
        // cluster_builder.go `buildCluster`: a cluster's connect timeout is the mesh's
        // `connectTimeout` (10 s, Envoy Gateway's too) unless a DestinationRule sets one.
        if envoy_gateway && kept.connect.is_none() {
            kept.connect = mesh
                .mesh
                .get("connectTimeout")
                .and_then(Value::as_str)
                .and_then(super::duration::to_gateway)
                .filter(|t| t != "10s");
        }
        let names = envoy_gateway.then_some(&mut namer as &mut crate::translate::target::Namer);
        let notes =
            backend_traffic_policy::keep(&mut r.generated, &obj.meta.name, &kept, names, &existing);
        r.notes.extend(notes);
    }
    // A DestinationRule whose settings reached every route that uses it says so.
    for r in results.iter_mut() {
        let Some(obj) = index.objects.get(r.object) else {
            continue;
        };
        let rule = (obj.namespace.clone(), obj.meta.name.clone());
        if !matches!(obj.body, SourceBody::DestinationRule(_)) || lost.contains(&rule) {
            continue;
        }
        for n in r.notes.iter_mut() {
            let Some(field) = n.location.field.clone() else {
                continue;
            };
            let Some((path, key)) = field.rsplit_once('.') else {
                continue;
            };
            if n.code != Code::IstioTrafficPolicyLost
                || !CARRIED.contains(&key)
                || !carried.contains(&(rule.clone(), path.to_string()))
            {
                continue;
            }
            *n = Diagnostic::new(
                Code::IstioTrafficPolicyKept,
                format!(
                    "{key} is written into the BackendTrafficPolicy of each VirtualService whose routes reach this host (target/destination-rule-kept there)"
                ),
            )
            .at(field.clone());
        }
    }
}

/// Whether each HTTP route Istio's gateway used for `vs` sets `retries`: its own routes, with
/// each delegating entry replaced by the delegate's (`delegate.namespace`, else the root's
/// namespace; delegates do not nest), which inherit the delegating entry's `retries` when
/// they set none (`pilot/pkg/model/virtualservice.go` `mergeHTTPRoute`).
fn routes_of(
    index: &crate::index::Index,
    obj: &crate::model::SourceObject,
    vs: &crate::model::istio::VirtualService,
) -> Vec<bool> {
    vs.http
        .iter()
        .flat_map(|route| match &route.delegate {
            None => vec![route.retries.is_some()],
            Some(d) => {
                let ns = d.namespace.as_deref().unwrap_or(&obj.namespace);
                d.name
                    .as_deref()
                    .and_then(|name| index.virtual_service(ns, name))
                    .map(|(_, delegate)| {
                        delegate
                            .http
                            .iter()
                            .map(|r| r.retries.is_some() || route.retries.is_some())
                            .collect()
                    })
                    .unwrap_or_default()
            }
        })
        .collect()
}

/// An HTTPRoute rule `retry` without `codes` (a VirtualService's `retries`) is retried by
/// Envoy Gateway on its default conditions, which include 503 responses for every method
/// (`internal/gatewayapi/route.go` `processRouteRetry` leaves `RetryOn` unset;
/// `internal/xds/translator/route.go` `buildRetryPolicy` keeps status 503), where Istio's
/// `retries` without a status in `retryOn` retried none (`retry.go` `ConvertPolicy`).
fn note_route_retries(generated: &[Generated], notes: &mut Vec<Diagnostic>) {
    let without_codes = generated
        .iter()
        .filter_map(|g| match g {
            Generated::HttpRoute(o) => Some(&o.spec.rules),
            _ => None,
        })
        .flatten()
        .filter(|r| r.retry.as_ref().is_some_and(|retry| retry.codes.is_empty()))
        .count();
    if without_codes > 0 {
        notes.push(Diagnostic::new(
            Code::TargetRetriesApproximate,
            format!(
                "{without_codes} rule(s) carry the VirtualService's retries as HTTPRoute retry without codes: Envoy Gateway then also retries 503 responses (POST included), which Istio's retries did not unless retryOn named the status"
            ),
        ));
    }
}

/// The DestinationRule settings shared by every backend of the generated routes (`Ok(None)`:
/// none has any), or the DestinationRules concerned and why they cannot be written.
#[allow(clippy::type_complexity)]
fn destination_settings(
    ctx: &Ctx,
    generated: &[Generated],
) -> Result<Option<FromRule>, (Vec<(String, String)>, String)> {
    let mut backends: BTreeSet<(String, String, Option<u32>)> = BTreeSet::new();
    let mut rules = 0;
    for g in generated {
        let per_rule: Vec<&Vec<crate::gwapi::BackendRef>> = match g {
            Generated::HttpRoute(o) => o.spec.rules.iter().map(|r| &r.backend_refs).collect(),
            Generated::GrpcRoute(o) => o.spec.rules.iter().map(|r| &r.backend_refs).collect(),
            _ => continue,
        };
        rules += per_rule.iter().filter(|refs| !refs.is_empty()).count();
        let refs = per_rule.into_iter().flatten();
        for b in refs {
            if b.kind.as_deref().is_none_or(|k| k == "Service") {
                let ns = b.namespace.as_deref().unwrap_or(g.namespace());
                backends.insert((ns.to_string(), b.name.clone(), b.port));
            }
        }
    }
    let mut per_backend: BTreeMap<(String, String, Option<u32>), Option<FromRule>> =
        BTreeMap::new();
    let mut concerned = Vec::new();
    for (ns, name, port) in &backends {
        let found = rule_for(ctx, ns, name, *port)?;
        if let Some(rule) = found.as_ref().and_then(|f| f.rule.clone()) {
            concerned.push(rule);
        }
        per_backend.insert((ns.clone(), name.clone(), *port), found);
    }
    let mut values = per_backend.values();
    let Some(mut first) = values.next().cloned() else {
        return Ok(None);
    };
    if values.any(|v| *v != first) {
        let list: Vec<String> = per_backend
            .iter()
            .map(|((ns, n, port), f)| {
                let port = port.map(|p| format!(":{p}")).unwrap_or_default();
                match f {
                    Some(f) => format!("Service {ns}/{n}{port} gets {}", f.destination.source),
                    None => format!("Service {ns}/{n}{port} gets none"),
                }
            })
            .collect();
        concerned.sort();
        concerned.dedup();
        return Err((
            concerned,
            format!(
                "one policy covers the whole route, and its backends were treated differently ({})",
                list.join(", ")
            ),
        ));
    }
    // Envoy Gateway builds one cluster per route rule (`internal/gatewayapi/helpers.go`
    // `irRouteDestinationName`), each with the circuit breaker's thresholds.
    if let Some(f) = first.as_mut()
        && rules > 1
        && f.circuit_breaker.as_ref().is_some_and(|c| {
            [
                c.max_connections,
                c.max_pending_requests,
                c.max_parallel_requests,
                c.max_parallel_retries,
            ]
            .iter()
            .any(|n| *n != u32::MAX)
        })
    {
        f.destination.differences.push(format!(
            "Istio applied the connectionPool limits once per Service, Envoy Gateway applies them to each of the route's {rules} rules apart"
        ));
    }
    Ok(first)
}

/// The traffic policy Istio's gateway applied to Service `ns/name` on `port`, when it set any
/// of [`CARRIED`]: the chosen DestinationRule's (its `portLevelSettings` entry for the port
/// replaces the whole policy, `util.go` `GetPortLevelTrafficPolicy`), with the mesh's
/// `defaultTrafficPolicy` for a `connectionPool` or `outlierDetection` it lacks
/// (`cluster_traffic_policy.go` `applyDefaultTrafficPolicy`).
#[allow(clippy::type_complexity)]
fn rule_for(
    ctx: &Ctx,
    ns: &str,
    name: &str,
    port: Option<u32>,
) -> Result<Option<FromRule>, (Vec<(String, String)>, String)> {
    // A per-version Service the translator wrote for a subset (`<service>-<subset>`): Istio
    // applied the base Service's DestinationRule merged with the subset's policy.
    for (o, d) in ctx.index.destination_rules() {
        let Some(HostKind::Service {
            name: base,
            namespace,
        }) = d
            .host
            .as_deref()
            .map(|h| hosts::classify(h, &o.namespace, &ctx.config.cluster_domain))
        else {
            continue;
        };
        let versioned =
            d.subsets.iter().filter_map(|s| s.name.as_deref()).any(|s| {
                super::names::sanitize(&format!("{base}-{s}"), 63) == name && namespace == ns
            });
        if versioned && has_carried(d) {
            return Err((
                vec![(o.namespace.clone(), o.meta.name.clone())],
                format!(
                    "Service {ns}/{name} stands for a subset of DestinationRule {}/{}, whose traffic policy Istio merged with the subset's",
                    o.namespace, o.meta.name
                ),
            ));
        }
    }
    let wildcard = ctx
        .index
        .destination_rules()
        .find(|(_, d)| d.host.as_deref().is_some_and(|h| h.contains('*')) && has_carried(d));
    if let Some((o, _)) = wildcard {
        return Err((
            vec![(o.namespace.clone(), o.meta.name.clone())],
            format!(
                "DestinationRule {}/{} has a wildcard host, and which rule Istio chose for Service {ns}/{name} is not worked out here",
                o.namespace, o.meta.name
            ),
        ));
    }
    let proxies: Vec<&str> = ctx.gateway_proxy_namespaces().into_iter().collect();
    let [proxy_ns] = proxies[..] else {
        return Ok(with_mesh_default(ctx, None, BTreeMap::new()));
    };
    let Some(chosen) = super::destination_rule::gateway_choice(ctx, name, ns, proxy_ns) else {
        // No rule for the Service, or one with a wildcard host somewhere: which one Istio's
        // gateway used is only worked out when no wildcard host could match.
        let own = ctx.index.destination_rules().find(|(o, d)| {
            has_carried(d)
                && d.host.as_deref().is_some_and(|h| {
                    matches!(
                        hosts::classify(h, &o.namespace, &ctx.config.cluster_domain),
                        HostKind::Service { name: n, namespace: m } if n == name && m == ns
                    )
                })
        });
        return match own {
            None => Ok(with_mesh_default(ctx, None, BTreeMap::new())),
            Some((o, _)) => Err((
                vec![(o.namespace.clone(), o.meta.name.clone())],
                format!(
                    "which DestinationRule Istio's gateway chose for Service {ns}/{name} is not worked out here (a rule with a wildcard host may apply)"
                ),
            )),
        };
    };
    let rules: Vec<(String, String)> = chosen
        .iter()
        .map(|(n, m)| (n.to_string(), m.to_string()))
        .collect();
    if rules.is_empty() {
        return Ok(with_mesh_default(ctx, None, BTreeMap::new()));
    }
    let [(rule_ns, rule_name)] = &rules[..] else {
        return Err((
            rules.clone(),
            format!(
                "{} DestinationRules for Service {ns}/{name} are merged by Istio in creation order",
                rules.len()
            ),
        ));
    };
    let Some((_, d)) = ctx
        .index
        .destination_rules()
        .find(|(o, _)| &o.namespace == rule_ns && &o.meta.name == rule_name)
    else {
        return Ok(with_mesh_default(ctx, None, BTreeMap::new()));
    };
    let key = (rule_ns.clone(), rule_name.clone());
    let mut source = format!("DestinationRule {rule_ns}/{rule_name}");
    let Some(tp) = &d.traffic_policy else {
        return Ok(with_mesh_default(ctx, Some((key, source)), BTreeMap::new()));
    };
    let port_level = tp.port_level_settings.iter().find(|pl| {
        pl.port
            .as_ref()
            .and_then(|p| p.number)
            .is_some_and(|n| Some(n) == port)
    });
    let mut path = "spec.trafficPolicy".to_string();
    let extra = match port_level {
        Some(pl) => {
            if let Some(i) = tp
                .port_level_settings
                .iter()
                .position(|p| std::ptr::eq(p, pl))
            {
                path = format!("spec.trafficPolicy.portLevelSettings[{i}]");
            }
            source.push_str(&format!(
                " (its portLevelSettings for port {})",
                port.unwrap_or_default()
            ));
            &pl.extra
        }
        None if port.is_none()
            && tp
                .port_level_settings
                .iter()
                .any(|pl| CARRIED.iter().any(|k| pl.extra.contains_key(*k))) =>
        {
            return Err((
                vec![key],
                format!(
                    "the route names no port of Service {ns}/{name}, and its DestinationRule has portLevelSettings, which replace the policy per port"
                ),
            ));
        }
        None => &tp.extra,
    };
    let own: BTreeMap<String, Value> = extra
        .iter()
        .filter(|(k, _)| CARRIED.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(with_mesh_default(ctx, Some((key, source)), own).map(|f| FromRule { path, ..f }))
}

fn has_carried(d: &DestinationRule) -> bool {
    d.traffic_policy
        .as_ref()
        .is_some_and(|tp| CARRIED.iter().any(|k| tp.extra.contains_key(*k)))
}

/// A duration field in Gateway API form, or a difference saying it was not readable.
fn duration(v: &Value, field: &str, differences: &mut Vec<String>) -> Option<String> {
    let text = v.as_str()?;
    let out = super::duration::to_gateway(text);
    if out.is_none() {
        differences.push(format!(
            "{field} {text:?} is not a duration Envoy Gateway takes"
        ));
    }
    out
}

/// A positive count (`0` and absent: Istio's default).
fn count(v: Option<&Value>) -> Option<u32> {
    v.and_then(Value::as_u64)
        .filter(|n| *n > 0)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// `policy` (the carried blocks of the DestinationRule `rule`, when one applied) with the
/// mesh's `defaultTrafficPolicy` blocks it lacks, in Envoy Gateway's terms; `None` when no
/// block is left.
fn with_mesh_default(
    ctx: &Ctx,
    rule: Option<((String, String), String)>,
    mut policy: BTreeMap<String, Value>,
) -> Option<FromRule> {
    let mut name = rule.as_ref().map_or_else(
        || "the mesh's defaultTrafficPolicy".to_string(),
        |(_, s)| s.clone(),
    );
    if let Some(default) = ctx
        .index
        .istio_mesh()
        .and_then(|m| m.mesh.get("defaultTrafficPolicy"))
    {
        for block in ["connectionPool", "outlierDetection"] {
            if !policy.contains_key(block)
                && let Some(v) = default.get(block)
            {
                policy.insert(block.to_string(), v.clone());
                if rule.is_some() {
                    name.push_str(&format!(" (with the mesh's default {block})"));
                }
            }
        }
    }
    if policy.is_empty() {
        return None;
    }
    Some(convert(rule.map(|(k, _)| k), name, &policy))
}

/// A traffic policy's carried blocks (`extra`), from `name`, in Envoy Gateway's terms.
fn convert(
    rule: Option<(String, String)>,
    name: String,
    extra: &BTreeMap<String, Value>,
) -> FromRule {
    let mut fields = Vec::new();
    let mut differences = Vec::new();
    let mut balancing = None;
    let mut slow_start = None;
    if let Some(lb) = extra.get("loadBalancer") {
        fields.push("loadBalancer".to_string());
        balancing = load_balancer(lb, &name, &mut slow_start, &mut differences);
    }
    let mut circuit_breaker = None;
    let mut connect = None;
    let mut idle_timeout = None;
    let mut max_connection_duration = None;
    if let Some(pool) = extra.get("connectionPool") {
        fields.push("connectionPool".to_string());
        let tcp = pool.get("tcp");
        let http = pool.get("http");
        let max = |v: Option<u32>| v.unwrap_or(u32::MAX);
        circuit_breaker = Some(CircuitBreaker {
            max_connections: max(count(tcp.and_then(|t| t.get("maxConnections")))),
            max_pending_requests: max(count(http.and_then(|h| h.get("http1MaxPendingRequests")))),
            max_parallel_requests: max(count(http.and_then(|h| h.get("http2MaxRequests")))),
            max_parallel_retries: max(count(http.and_then(|h| h.get("maxRetries")))),
            max_requests_per_connection: count(
                http.and_then(|h| h.get("maxRequestsPerConnection")),
            ),
            source: format!("{name}'s connectionPool"),
        });
        connect = tcp
            .and_then(|t| t.get("connectTimeout"))
            .and_then(|v| duration(v, "connectionPool.tcp.connectTimeout", &mut differences));
        // applyConnectionPool: the HTTP idle timeout, else the TCP one.
        idle_timeout = http
            .and_then(|h| h.get("idleTimeout"))
            .or_else(|| tcp.and_then(|t| t.get("idleTimeout")))
            .and_then(|v| duration(v, "connectionPool idleTimeout", &mut differences));
        max_connection_duration = tcp
            .and_then(|t| t.get("maxConnectionDuration"))
            .and_then(|v| {
                duration(
                    v,
                    "connectionPool.tcp.maxConnectionDuration",
                    &mut differences,
                )
            });
        for (section, keys) in [
            (tcp, &["tcpKeepalive"][..]),
            (
                http,
                &[
                    "h2UpgradePolicy",
                    "useClientProtocol",
                    "maxConcurrentStreams",
                ][..],
            ),
        ] {
            for k in keys {
                if section.and_then(|s| s.get(*k)).is_some() {
                    differences.push(format!("connectionPool {k} has no field here"));
                }
            }
        }
    }
    let mut outlier = None;
    if let Some(od) = extra.get("outlierDetection") {
        fields.push("outlierDetection".to_string());
        outlier = Some(outlier_detection(od, &mut differences));
        // loadbalancer.go `ApplyToCluster`: with outlier detection on, the mesh's locality
        // load balancing (on by default, mesh.go) fails over by zone: the gateway preferred
        // endpoints in its own zone.
        differences.push("Istio's gateway preferred endpoints in its own zone once outlier detection was on (locality failover, on by default); Envoy Gateway spreads requests across zones unless its loadBalancer zoneAware says otherwise".into());
    }
    FromRule {
        rule,
        path: "spec.trafficPolicy".to_string(),
        balancing: balancing.map(|b| BalancingPlan {
            slow_start,
            source: format!("{name}'s loadBalancer ({})", b.describe()),
            balancing: b,
            differences: Vec::new(),
        }),
        circuit_breaker,
        connect,
        destination: DestinationSettings {
            source: name,
            outlier,
            idle_timeout,
            max_connection_duration,
            fields,
            differences,
        },
    }
}

/// `loadBalancer` (`applyLoadBalancer`, `ApplyRingHashLoadBalancer`).
fn load_balancer(
    lb: &Value,
    name: &str,
    slow_start: &mut Option<String>,
    differences: &mut Vec<String>,
) -> Option<Balancing> {
    if lb.get("localityLbSetting").is_some() {
        differences.push("loadBalancer.localityLbSetting has no field here".into());
    }
    // applyLoadBalancer reads the warm-up for round robin and least request (Istio's default
    // algorithm) only; `setSlowStartConfig` gives Envoy the window alone (linear growth),
    // which Envoy Gateway's `slowStart.window` is.
    let simple = lb.get("simple").and_then(Value::as_str);
    let warms = matches!(
        simple,
        Some("ROUND_ROBIN" | "LEAST_REQUEST" | "LEAST_CONN") | None
    ) && lb.get("consistentHash").is_none();
    if warms {
        *slow_start = lb
            .get("warmupDurationSecs")
            .or_else(|| lb.pointer("/warmup/duration"))
            .and_then(|v| duration(v, "loadBalancer warm-up", differences));
        if lb.pointer("/warmup/aggression").is_some()
            || lb.pointer("/warmup/minimumPercent").is_some()
        {
            differences.push("the warm-up's aggression and minimum percent are not written (Envoy Gateway's slow start grows linearly)".into());
        }
        if slow_start.is_some() && simple.is_none() {
            return Some(Balancing::LeastRequest);
        }
    }
    if let Some(simple) = simple {
        return match simple {
            "ROUND_ROBIN" => Some(Balancing::RoundRobin),
            "LEAST_REQUEST" | "LEAST_CONN" => Some(Balancing::LeastRequest),
            "RANDOM" => Some(Balancing::Random),
            "UNSPECIFIED" => None,
            other => {
                differences.push(format!("loadBalancer.simple {other} has no equivalent"));
                None
            }
        };
    }
    let hash = lb.get("consistentHash")?;
    if let Some(size) = hash.pointer("/maglev/tableSize") {
        differences.push(format!(
            "the Maglev table size {size} is not written (Envoy Gateway's default is 65537)"
        ));
    }
    if hash.get("ringHash").is_some() || hash.get("minimumRingSize").is_some() {
        differences.push(format!(
            "{name} hashed on a ring, Envoy Gateway uses Maglev: each key maps to an endpoint again once, at the cut-over"
        ));
    }
    if let Some(h) = hash.get("httpHeaderName").and_then(Value::as_str) {
        return Some(Balancing::HashHeader(h.to_ascii_lowercase()));
    }
    if let Some(q) = hash.get("httpQueryParameterName").and_then(Value::as_str) {
        return Some(Balancing::HashQueryParam(q.to_string()));
    }
    if hash.get("useSourceIp").and_then(Value::as_bool) == Some(true) {
        return Some(Balancing::HashSourceIp);
    }
    if let Some(c) = hash.get("httpCookie") {
        let cookie = c.get("name").and_then(Value::as_str)?;
        let ttl = c
            .get("ttl")
            .and_then(|v| duration(v, "consistentHash.httpCookie.ttl", differences));
        let attributes = c
            .get("path")
            .and_then(Value::as_str)
            .map(|p| vec![("Path".to_string(), p.to_string())])
            .unwrap_or_default();
        if c.get("attributes").is_some() {
            differences.push("httpCookie.attributes are not written".into());
        }
        return Some(Balancing::HashCookie {
            name: cookie.to_string(),
            ttl,
            attributes,
        });
    }
    differences.push("this consistentHash key has no equivalent".into());
    None
}

/// `outlierDetection` (`applyOutlierDetection`), with the Envoy defaults Istio left in place
/// written out: Envoy Gateway's CRD defaults differ (a 3 s interval).
fn outlier_detection(od: &Value, differences: &mut Vec<String>) -> OutlierDetection {
    let u32_of = |key: &str| {
        od.get(key)
            .and_then(|v| {
                v.as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            })
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    };
    // Consecutive_5XxErrors: 0 turns the check off; unset: Envoy's 5. Envoy Gateway passes
    // 0 through (`buildXdsOutlierDetection`), and Envoy never counts up to 0.
    let consecutive_5xx = Some(u32_of("consecutive5xxErrors").unwrap_or(5));
    // applyOutlierDetection sets `enforcing_success_rate` 0; Envoy Gateway leaves Envoy's 100.
    differences.push("Envoy Gateway leaves Envoy's success-rate ejection on, which Istio turned off (with 5 or more endpoints, one whose success rate is far below the others' may be ejected)".into());
    if od.get("consecutiveErrors").is_some() {
        differences.push("the deprecated consecutiveErrors is not written".into());
    }
    let mut text = |key: &str, default: &str| {
        od.get(key)
            .and_then(|v| duration(v, &format!("outlierDetection.{key}"), differences))
            .unwrap_or_else(|| default.to_string())
    };
    let interval = text("interval", "10s");
    let base_ejection_time = text("baseEjectionTime", "30s");
    let split = od
        .get("splitExternalLocalOriginErrors")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    OutlierDetection {
        consecutive_5xx,
        consecutive_gateway_errors: u32_of("consecutiveGatewayErrors").filter(|n| *n > 0),
        interval,
        base_ejection_time,
        max_ejection_percent: u32_of("maxEjectionPercent")
            .filter(|n| *n > 0)
            .unwrap_or(10),
        // Envoy's default for a split check is 5 failures, enforced.
        local_origin_failures: split.then(|| {
            u32_of("consecutiveLocalOriginFailures")
                .filter(|n| *n > 0)
                .unwrap_or(5)
        }),
        panic_threshold: u32_of("minHealthPercent").unwrap_or(0).min(100),
    }
}
