//! `docs/targets.md`, generated from the target profiles (`crate::target`) and the tables of
//! what each source's translator reads (`ingress::nginx::access`, `ingress::nginx::other`).

use std::fmt::Write;

use crate::config::Target;
use crate::target::{Control, PROFILES, Profile, Support};
use crate::translate::ingress::nginx::{access, balancing, other, rate_limits, retries, timeouts};

/// What Envoy Gateway's BackendTrafficPolicy writes for an annotation of the retries or
/// balancing tables, if it is one.
fn backend_field(key: &str) -> Option<&'static str> {
    if retries::KEYS.contains(&key) {
        Some("BackendTrafficPolicy `retry`")
    } else if balancing::KEYS.contains(&key) {
        Some("BackendTrafficPolicy `loadBalancer`")
    } else if rate_limits::KEYS.contains(&key) {
        Some("BackendTrafficPolicy local `rateLimit` (approximate: `target/rate-limit`)")
    } else {
        None
    }
}

/// What a target does with one control, in a table cell.
fn cell(p: &Profile, c: Control) -> String {
    match p.support(c) {
        Support::Policy { kind, field, .. } => format!("{kind} `{field}`"),
        Support::FailsClosed { .. } => "fails closed".to_string(),
    }
}

/// A table header: `first` columns, then one per target.
fn header(first: &[&str]) -> String {
    let columns: Vec<String> = first
        .iter()
        .map(|c| c.to_string())
        .chain(PROFILES.iter().map(|p| format!("`{}`", p.id)))
        .collect();
    format!(
        "| {} |\n|{}\n",
        columns.join(" | "),
        "---|".repeat(columns.len())
    )
}

/// The whole page.
pub(crate) fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# Target implementations\n\n");
    out.push_str("Generated from `src/target.rs` and the translators' tables (`BLESS=1 cargo test --test integration targets_docs` rewrites it); do not edit.\n\n");
    out.push_str("`--target` (or `target:` in `.gateway-migrate.yaml`) names the implementation the output is written for. The Standard Gateway API has no field for who may reach a route, so the access controls of the sources are written as the target's own policy resource, attached with `targetRefs`, validated against the implementation's pinned CRDs like every generated object, and read by the behaviour model of the new side (`gateway-migrate trace --source-ip` decides them for one client).\n\n");
    out.push_str("**Never wider.** When the target has no resource for a control, or the source's value does not fit it, the routes that control protected are written without backends (a rule without backends answers 500) and `target/access-fails-closed` names the control: the migration never publishes a route open that was protected. A policy that covers more requests than the source did (Istio's, scoped by host and path on the whole Gateway) is written with `target/access-scope`.\n\n");
    out.push_str("## Targets\n\n| `--target` | implementation | facts read from | request timeout when a route sets none |\n|---|---|---|---|\n");
    for p in &PROFILES {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} ({}) |",
            p.id,
            p.name,
            p.version,
            p.default_request_timeout.unwrap_or("none"),
            p.timeout_source
        );
    }
    out.push_str("\n## Access controls\n\n");
    out.push_str(&header(&["control"]));
    for c in Control::ALL {
        let cells: Vec<String> = PROFILES.iter().map(|p| cell(p, c)).collect();
        let _ = writeln!(out, "| {} | {} |", c.describe(), cells.join(" | "));
    }
    out.push_str("\nWhy a target fails closed, and where each policy field is documented:\n\n");
    for p in &PROFILES {
        for c in Control::ALL {
            let text = match p.support(c) {
                Support::Policy { source, .. } => format!("written; `{source}`"),
                Support::FailsClosed { why } => format!("fails closed: {why}"),
            };
            let _ = writeln!(out, "- `{}`, {}: {text}.", p.id, c.describe());
        }
    }
    out.push_str("\n### When a policy is not written\n\nA control the target could carry still fails closed when the written policy would not hold:\n\n- the route's Gateway belongs to a GatewayClass another implementation serves (the repository's GatewayClass names another `controllerName`; without one, `istio` is Istio's own class): nobody would enforce the policy. Set `gatewayClassName` (`--gateway-class`) to the target's class;\n- ingress-nginx checked the forwarded client address (`use-forwarded-headers`, `use-proxy-protocol` or `enable-real-ip` in its ConfigMap) while the policy would check the peer's (the load balancer's) until the Gateway's client IP detection is set up, which is not written yet;\n- the repository already has an Envoy Gateway SecurityPolicy on the generated route (Envoy Gateway applies only the oldest policy on a route);\n- the source's value could not be read by ingress-nginx (it then denied the location), or an authentication URL is not a cluster Service over plain HTTP (Envoy Gateway).\n\nA written policy comes with a warning where it may still not hold as the source's control did: the Gateway's class is not defined in the repository (`target/gateway-class-unknown`), a Gateway-level SecurityPolicy of the repository is replaced on the routes (`target/gateway-policy-overridden`), Istio matches paths after its own path normalization, which does not merge slashes or decode `%2F` as nginx did unless the mesh says `DECODE_AND_MERGE_SLASHES` (`target/path-normalization`).\n\nClient certificates are checked per host by ingress-nginx (the first Ingress of the host with `auth-tls-secret` sets them for the whole server), so every Ingress of that host is closed with it. Envoy Gateway asks for credentials (external, then basic authentication) before it checks the address: `target/access-order` says so where a policy has both.\n");
    out.push_str("\n## ingress-nginx annotations\n\nEvery `nginx.ingress.kubernetes.io/*` annotation the Ingress translator reads as an access control, a timeout, retries or load balancing, with what each target makes of it, and the annotations it reports without translating (their codes say why). Annotations the Standard API carries (rewrites, redirects, CORS, timeouts, canaries, ...) are translated on every target and not listed.\n\n");
    out.push_str(&header(&["annotation", "control"]));
    for (key, c) in access::ANNOTATIONS {
        let cells: Vec<String> = PROFILES.iter().map(|p| cell(p, *c)).collect();
        let _ = writeln!(
            out,
            "| `{key}` | {} | {} |",
            c.describe(),
            cells.join(" | ")
        );
    }
    for key in timeouts::KEYS {
        let cells: Vec<String> = PROFILES
            .iter()
            .map(|p| match p.target {
                Target::EnvoyGateway => {
                    "BackendTrafficPolicy `timeout` (as nginx had it)".to_string()
                }
                _ if *key == "proxy-connect-timeout" => {
                    "reported (`ingress-nginx/proxy-connect-timeout`)".to_string()
                }
                _ => "`timeouts.request` (approximate: `ingress-nginx/timeout-approximate`)"
                    .to_string(),
            })
            .collect();
        let _ = writeln!(out, "| `{key}` | timeout | {} |", cells.join(" | "));
    }
    for (key, code) in other::CATALOG {
        let reported = format!("reported (`{}`)", code.id());
        let cells: Vec<String> = PROFILES
            .iter()
            .map(|p| match (p.target, backend_field(key)) {
                (Target::EnvoyGateway, Some(field)) => field.to_string(),
                _ => reported.clone(),
            })
            .collect();
        let control = if retries::KEYS.contains(key) {
            "retries"
        } else if balancing::KEYS.contains(key) {
            "load balancing"
        } else if rate_limits::KEYS.contains(key) {
            "rate limit"
        } else {
            "—"
        };
        let _ = writeln!(out, "| `{key}` | {control} | {} |", cells.join(" | "));
    }
    out.push_str("\nThe controller's ConfigMap keys that check every location:\n\n| ConfigMap key | control |\n|---|---|\n");
    for (key, c) in access::SETTINGS {
        let _ = writeln!(out, "| `{key}` | {} |", c.describe());
    }
    out.push_str("\n### Counts per target, and ingress2gateway 1.1\n\nThe annotations above only (every other annotation is translated into Standard Gateway API fields the same on every target). ingress2gateway v1.1.0's emitters for the same implementation, from its sources: the Envoy Gateway emitter writes `whitelist-source-range` and `denylist-source-range` as a SecurityPolicy (`pkg/i2gw/emitters/envoygateway/iprange.go` `EmitIPRangeControl`) and `proxy-body-size` and `client-body-buffer-size` as a BackendTrafficPolicy (`buffer.go` `EmitBuffer`; annotations read in `pkg/i2gw/providers/ingressnginx/annotations.go`); it has no Istio emitter, and its standard emitter writes no policy.\n\n| `--target` | written as a policy | fail closed | reported | ingress2gateway 1.1 emitter: written as a policy |\n|---|---|---|---|---|\n");
    for p in &PROFILES {
        let access_written = access::ANNOTATIONS
            .iter()
            .filter(|(_, c)| matches!(p.support(*c), Support::Policy { .. }))
            .count();
        let closed = access::ANNOTATIONS.len() - access_written;
        let (timeouts_written, backend_written) = if p.target == Target::EnvoyGateway {
            (
                timeouts::KEYS.len(),
                other::CATALOG
                    .iter()
                    .filter(|(k, _)| backend_field(k).is_some())
                    .count(),
            )
        } else {
            (0, 0)
        };
        let i2gw = match p.target {
            Target::EnvoyGateway => "4 (2 access, 2 body size)",
            Target::Istio => "no emitter",
            Target::Generic => "0",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {closed} | {} | {i2gw} |",
            p.id,
            access_written + timeouts_written + backend_written,
            // Elsewhere read and send timeouts become an approximate `timeouts.request`;
            // the connect timeout is reported.
            other::CATALOG.len() - backend_written + usize::from(timeouts_written == 0)
        );
    }
    out.push_str("\n## Istio policies on the gateway's pods\n\nAn AuthorizationPolicy, RequestAuthentication or Telemetry selecting the old ingress gateway's pods is copied for `istio` with `targetRefs` naming the new Gateway (`istio/policy-retargeted`). Other targets run no Istio proxy: an AuthorizationPolicy that allows, denies or calls an authorizer, or a RequestAuthentication, closes the new Gateway, whose routes are then written without backends (`target/access-fails-closed` on each route's source).\n\n## Timeouts\n\nA route rule without `timeouts.request` gets no timeout on its Envoy Gateway route, so Envoy's 15 s default ends long requests where ingress-nginx and Istio had no request timeout. With `envoy-gateway`, each forwarding rule without one gets `timeouts.request: 0s` and the source's routes a BackendTrafficPolicy with `requestTimeout: 0s` (GRPCRoutes have no timeouts field), the stream idle timeout of the source (ingress-nginx's `proxy-read-timeout`/`proxy-send-timeout`, from the annotation, the ConfigMap or the 60 s default; Istio's gateways have none) and ingress-nginx's connect timeout (`proxy-connect-timeout`, 5 s by default). With `generic`, the rules get `timeouts.request: 0s` only. `target/timeouts-kept` says what was kept. The behaviour model gives the Envoy Gateway side its 15 s default where neither the rule nor a BackendTrafficPolicy sets a request timeout.\n\n## Retries\n\nEnvoy Gateway retries nothing unless a route or a BackendTrafficPolicy asks (`internal/xds/translator/route.go` `buildRetryPolicy`). With `envoy-gateway`, the BackendTrafficPolicy of each source gets `retry`: ingress-nginx's `proxy_next_upstream` (from `proxy-next-upstream`, `-tries`, `-timeout`, the ConfigMap, or the default `error timeout` with 3 tries) as `tries - 1` retries on `connect-failure`, `refused-stream` and `reset-before-request` (what fails before the request is sent, which nginx retried for every method); status codes and `reset` only where nginx retried non-idempotent requests too (`non_idempotent`, `retry-non-idempotent`), since Envoy retries POST like GET. What `error` and `timeout` retried after the request was sent (idempotent requests only) and a response header later than `proxy-read-timeout` are not retried: `target/retries-approximate` says so. Istio's default retries (2 on `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`, or the mesh's `defaultHttpRetryPolicy` with its `perTryTimeout`) for every VirtualService whose routes, its delegates' included, set none (`target/retries-kept`); a VirtualService's own `retries` written as an HTTPRoute `retry` without codes is retried by Envoy Gateway on 503 too (`target/retries-approximate`). Other targets: Istio applies its default to HTTPRoutes itself; `generic` reports the annotations.\n\n## Load balancing and session affinity\n\ningress-nginx balances each upstream (a Service and port) by a sticky cookie (`affinity: cookie`), a consistent hash (`upstream-hash-by`) or its algorithm (`load-balance`, the ConfigMap's, `round_robin` by default), and takes them from the first Ingress naming the Service (the cookie from the last with affinity; `controller.go`). With `envoy-gateway`, the BackendTrafficPolicy gets `loadBalancer`: a consistent hash on the cookie with a `ttl` (Envoy then sets it: session affinity), on the client address (`$remote_addr`), a header (`$http_*`), cookie (`$cookie_*`) or query parameter (`$arg_*`), `RoundRobin` (also nginx's default, where Envoy Gateway would use least request), or `LeastRequest` for `ewma`. An expression (`$host$request_uri`), subset hashing, or Services of one Ingress balanced differently are reported. `target/load-balancing-kept` or `-approximate` says what was written.\n\n## Rate limits\n\n`limit-rps` and `limit-rpm` limited each client address per nginx replica, with a burst of `limit × limit-burst-multiplier` and 503 beyond (`template.go` `buildRateLimit`). With `envoy-gateway`, the BackendTrafficPolicy gets a local `rateLimit`: one rule per limit and counted range, each client of the range counted apart (`sourceCIDR` `Distinct`; a rule holds one range, `buildRateLimitRule`), the allow-list kept by counting the few ranges that cover every address outside it (at most 16 rules in all; an allow-list that needs more, such as one IPv6 address, is reported), the same sustained rate with no burst beyond it, 429, one bucket per route rule (`target/rate-limit` says so). Where nginx took the client address from a forwarded header (`use-forwarded-headers`, `use-proxy-protocol`, `enable-real-ip`), no limit (and no hash on the client address) is written: Envoy Gateway would count the load balancer's address.\n\n## Circuit breakers and DestinationRules\n\nWithout a `circuitBreaker`, Envoy Gateway keeps Envoy's thresholds (1024 connections, pending and parallel requests per backend and replica; `internal/xds/translator/cluster.go`) and answers 503 beyond them; ingress-nginx had no such limit and Istio sets them to the largest value (`cluster_traffic_policy.go` `getDefaultCircuitBreakerThresholds`). With `envoy-gateway` every BackendTrafficPolicy sets `circuitBreaker` to the source's (`target/circuit-breaker`). An Istio DestinationRule's `loadBalancer`, `connectionPool` and `outlierDetection` are written into the BackendTrafficPolicy of each VirtualService all of whose backends get that rule from the gateway (the `portLevelSettings` entry for the backend's port replacing the whole policy, `util.go` `GetPortLevelTrafficPolicy`, and the mesh's `defaultTrafficPolicy` filling a missing `connectionPool` or `outlierDetection`: `loadBalancer`, `circuitBreaker`, connect and idle timeouts, `healthCheck.passive` with the Envoy defaults Istio relied on written out; `target/destination-rule-kept`, or `-approximate` for what differs, such as the success-rate ejection Envoy Gateway leaves on and limits that apply per route rule); a VirtualService whose backends get different rules, subsets, or a rule with a wildcard host get `target/destination-rule-approximate` and the rule keeps `istio/traffic-policy-lost`. Policies of two sources with one name in a namespace (an Ingress and a VirtualService) are renamed apart (`target/policy-renamed`).\n\n## Not written yet\n\nConnection limits (`limit-connections`: Envoy Gateway limits connections per listener, not per client), response bandwidth (`limit-rate`), global rate limits, body size and buffering (Envoy Gateway's `requestBuffer` would hold each request in memory up to the limit and stops WebSocket upgrades and streaming on the route, where nginx spooled bodies to disk), backend TLS details, client certificates and custom error pages are reported with their own codes, not written as policies.\n");
    out
}
