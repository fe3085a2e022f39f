//! Istio `retries` → `retry` (experimental channel, GEP-1731) and `timeouts.backendRequest`.

use crate::config::Channel;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::HttpRouteRetry;
use crate::model::istio::HttpRetry;
use crate::translate::istio::{Ctx, duration, unknown};

/// What the retry policy becomes: the `retry` block and the per-try timeout.
#[derive(Debug, Default)]
pub(super) struct Retry {
    pub retry: Option<HttpRouteRetry>,
    pub backend_request: Option<String>,
}

pub(super) fn translate(
    ctx: &Ctx,
    retries: &HttpRetry,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Retry {
    unknown::report(&retries.extra, path, notes);
    // Istio turns retries off when `attempts` is 0 or unset, whatever else the policy says:
    // pilot/pkg/networking/core/route/retry/retry.go, ConvertPolicy (`in.Attempts <= 0`
    // returns no retry policy at all, so `perTryTimeout` and `retryOn` have no effect either).
    if retries.attempts.is_none_or(|n| n <= 0) {
        let (field, what) = match retries.attempts {
            Some(_) => (format!("{path}.attempts"), "attempts: 0"),
            None => (path.to_string(), "retries without attempts"),
        };
        notes.push(
            Diagnostic::new(
                Code::IstioRetriesDisabled,
                format!(
                    "{what} disables retries in Istio (perTryTimeout and retryOn have no effect then); Gateway API cannot say \"no retries\" (retry.attempts is at least 1) and a route without retry gets {}; nothing written",
                    target_default(ctx)
                ),
            )
            .at(field),
        );
        return Retry::default();
    }
    if ctx.config.channel != Channel::Experimental {
        notes.push(Diagnostic::new(Code::IstioRetries, format!("retries need the Gateway API experimental channel (HTTPRoute retry, GEP-1731); not translated (run with --channel experimental); the route gets {} instead", target_default(ctx))).at(path.to_string()));
        return Retry::default();
    }
    let mut out = HttpRouteRetry::default();
    if let Some(n) = retries.attempts {
        out.attempts = Some(n.clamp(1, i64::from(u32::MAX)) as u32);
    }
    if let Some(on) = &retries.retry_on {
        let mut codes = std::collections::BTreeSet::new();
        let mut dropped = Vec::new();
        for cond in on.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            match cond {
                "5xx" => codes.extend([500, 502, 503, 504]),
                "gateway-error" => codes.extend([502, 503, 504]),
                "retriable-4xx" => {
                    codes.insert(409);
                }
                // Connection-level failures: Gateway API says implementations SHOULD retry them.
                "connect-failure" | "refused-stream" | "reset" | "reset-before-request" => {}
                other => match other.parse::<u32>() {
                    Ok(code) if (400..=599).contains(&code) => {
                        codes.insert(code);
                    }
                    _ => dropped.push(other.to_string()),
                },
            }
        }
        if on.contains("5xx") {
            notes.push(Diagnostic::new(Code::IstioRetryOn5xx, "retryOn 5xx written as codes 500, 502, 503, 504 (Gateway API retries on listed codes only)").at(format!("{path}.retryOn")));
        }
        if !dropped.is_empty() {
            notes.push(Diagnostic::new(Code::IstioRetryOn, format!("retry conditions {} have no Gateway API equivalent (only HTTP status codes and connection errors); dropped", dropped.join(", "))).at(format!("{path}.retryOn")));
        }
        out.codes = codes.into_iter().collect();
    }
    let mut backend_request = None;
    if let Some(t) = &retries.per_try_timeout {
        match duration::to_gateway(t) {
            Some(d) => backend_request = Some(d),
            None => notes.push(
                Diagnostic::new(
                    Code::IstioInvalidDuration,
                    format!("perTryTimeout '{t}' is not a duration; dropped"),
                )
                .at(format!("{path}.perTryTimeout")),
            ),
        }
    }
    if retries.retry_remote_localities.is_some() || retries.retry_ignore_previous_hosts.is_some() {
        notes.push(Diagnostic::new(Code::IstioRetryHostSelection, "retryRemoteLocalities / retryIgnorePreviousHosts have no Gateway API equivalent; dropped").at(path.to_string()));
    }
    if retries.backoff.is_some() {
        match retries.backoff.as_deref().and_then(duration::to_gateway) {
            Some(d) => out.backoff = Some(d),
            None => notes.push(
                Diagnostic::new(
                    Code::IstioInvalidDuration,
                    "backoff is not a duration; dropped",
                )
                .at(format!("{path}.backoff")),
            ),
        }
    }
    notes.push(Diagnostic::new(Code::IstioRetriesTranslated, "retries written as the experimental HTTPRoute retry (GEP-1731); perTryTimeout becomes timeouts.backendRequest").at(path.to_string()));
    Retry {
        retry: Some(out),
        backend_request,
    }
}

/// The retries a route without its own gets on the target: on Istio the mesh's
/// `defaultHttpRetryPolicy` or Istio's default (`retry.go` `ConvertPolicy`); Envoy Gateway
/// retries nothing unless a policy says so.
fn target_default(ctx: &Ctx) -> String {
    match ctx.config.target {
        crate::config::Target::Istio => {
            let assumed = crate::controllers::IstioMesh {
                source: crate::controllers::ConfigSource::Assumed,
                mesh: serde_json::Value::Null,
            };
            match ctx.index.istio_mesh().unwrap_or(&assumed).default_retries() {
                Some((n, on)) => format!("Istio's default retries ({n} on {on})"),
                None => "no retries (the mesh's defaultHttpRetryPolicy has none)".into(),
            }
        }
        crate::config::Target::EnvoyGateway => {
            "no retries (Envoy Gateway retries only where a policy says so)".into()
        }
        crate::config::Target::Generic => "the implementation's default retries".into(),
    }
}
