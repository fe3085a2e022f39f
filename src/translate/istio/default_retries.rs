//! Istio's default retries, for a target that has none. Istio gives every HTTP route that sets
//! no `retries` the mesh's `defaultHttpRetryPolicy`, else 2 retries on
//! `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes` with no status
//! code listed (istio/istio `pilot/pkg/networking/core/route/retry/retry.go` `ConvertPolicy`,
//! `defaultRetryOn`, `defaultNumRetries`; `parseRetryOn` reads numbers in `retryOn` as status
//! codes and adds `retriable-status-codes` for them). Envoy Gateway retries nothing unless told,
//! so its BackendTrafficPolicy gets the same retry (`translate::target::backend`).

use crate::controllers::IstioMesh;
use crate::translate::target::backend::{Retry, RetryOn};

/// What Istio retried on a VirtualService's HTTP routes (its delegates' in place of the
/// entries that delegate), given whether each sets `retries` of its own, when every one of
/// them left it to the mesh default (`Err` with the reason when some set their own: one
/// policy covers every rule of the route, so it cannot give the default to some only).
pub(crate) fn of(routes: &[bool], mesh: &IstioMesh) -> Result<Option<Retry>, String> {
    let own = routes.iter().filter(|own| **own).count();
    let Some((attempts, on)) = mesh.default_retries() else {
        return Ok(None);
    };
    if own > 0 && own < routes.len() {
        return Err(format!(
            "{own} of its {} HTTP routes (delegates' included) set their own retries, the others got the mesh default ({attempts} retries on {on}), which one policy for the whole route cannot give to some rules only",
            routes.len()
        ));
    }
    if own > 0 || routes.is_empty() {
        return Ok(None);
    }
    let mut r = retry(attempts, &on);
    // ConvertPolicy copies the policy's perTryTimeout.
    r.per_try_timeout = mesh
        .mesh
        .pointer("/defaultHttpRetryPolicy/perTryTimeout")
        .and_then(serde_json::Value::as_str)
        .and_then(super::duration::to_gateway);
    Ok(Some(r))
}

/// Istio's `retryOn` string (`parseRetryOn`: comma-separated, trimmed; a number is a status
/// code) as a retry of `attempts`.
fn retry(attempts: u64, on: &str) -> Retry {
    let mut triggers = Vec::new();
    let mut status_codes = Vec::new();
    let mut differences = Vec::new();
    for token in on.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if let Ok(code) = token.parse::<u16>() {
            status_codes.push(code);
        } else if let Some(t) = RetryOn::from_envoy_name(token) {
            triggers.push(t);
        } else {
            differences.push(format!(
                "Envoy Gateway has no retry condition {token}, which Istio retried on too"
            ));
        }
    }
    if !status_codes.is_empty() && !triggers.contains(&RetryOn::RetriableStatusCodes) {
        triggers.push(RetryOn::RetriableStatusCodes);
    }
    Retry {
        retries: u32::try_from(attempts).unwrap_or(u32::MAX),
        on: triggers,
        status_codes,
        source: format!("every route without retries of its own {attempts} times on {on}"),
        per_try_timeout: None,
        differences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::{ConfigSource, IstioMesh};

    fn mesh(v: serde_json::Value) -> IstioMesh {
        IstioMesh {
            source: ConfigSource::Assumed,
            mesh: v,
        }
    }

    fn vs(http: serde_json::Value) -> Vec<crate::model::istio::HttpRoute> {
        serde_json::from_value(http).unwrap()
    }

    fn of(
        routes: &[crate::model::istio::HttpRoute],
        mesh: &IstioMesh,
    ) -> Result<Option<Retry>, String> {
        let own: Vec<bool> = routes.iter().map(|r| r.retries.is_some()).collect();
        super::of(&own, mesh)
    }

    // retry.go: `defaultNumRetries` 2, `defaultRetryOn` without status codes.
    #[test]
    fn istio_default_is_two_retries_on_its_default_conditions() {
        let r = of(&vs(serde_json::json!([{}])), &mesh(serde_json::Value::Null))
            .unwrap()
            .unwrap();
        assert_eq!(r.retries, 2);
        let names: Vec<&str> = r.on.iter().map(|t| t.envoy_name()).collect();
        assert_eq!(
            names,
            [
                "connect-failure",
                "refused-stream",
                "unavailable",
                "cancelled",
                "retriable-status-codes"
            ]
        );
        assert!(r.status_codes.is_empty());
        assert!(r.differences.is_empty());
    }

    // `ConvertPolicy`: attempts 0 turns retries off; `parseRetryOn`: numbers are codes.
    #[test]
    fn mesh_policy_decides_and_routes_with_their_own_retries_are_left_alone() {
        let off = mesh(serde_json::json!({"defaultHttpRetryPolicy": {"attempts": 0}}));
        assert_eq!(of(&vs(serde_json::json!([{}])), &off), Ok(None));
        let codes = mesh(serde_json::json!({"defaultHttpRetryPolicy":
            {"attempts": 3, "retryOn": "gateway-error, 429,retriable-headers", "perTryTimeout": "2s"}}));
        let r = of(&vs(serde_json::json!([{}])), &codes).unwrap().unwrap();
        assert_eq!(r.retries, 3);
        assert_eq!(r.on, [RetryOn::GatewayError, RetryOn::RetriableStatusCodes]);
        assert_eq!(r.status_codes, [429]);
        assert_eq!(r.per_try_timeout.as_deref(), Some("2s"));
        assert_eq!(r.differences.len(), 1, "{:?}", r.differences);
        let own = vs(serde_json::json!([{"retries": {"attempts": 1}}]));
        assert_eq!(of(&own, &mesh(serde_json::Value::Null)), Ok(None));
        let mixed = vs(serde_json::json!([{"retries": {"attempts": 1}}, {}]));
        assert!(of(&mixed, &mesh(serde_json::Value::Null)).is_err());
    }
}
