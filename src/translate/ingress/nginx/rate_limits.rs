//! ingress-nginx's request rate limits, for a target that carries them (Envoy Gateway's
//! BackendTrafficPolicy local `rateLimit`; elsewhere the annotations are reported).
//!
//! `limit-rps` / `limit-rpm` (`annotations/ratelimit/main.go` `Parse`: Go `Atoi`; 0 or less is
//! no limit) become one `limit_req_zone` per Ingress keyed by the client address
//! (`$binary_remote_addr`, or nothing for clients in `limit-allowlist`/`limit-whitelist`,
//! which are then not limited; `template.go` `buildRateLimitZones`, `nginx.tmpl`'s `geo`/`map`
//! blocks), shared by every location of the Ingress, and `limit_req zone=… burst=<limit ×
//! limit-burst-multiplier (5)> nodelay` in each location (`buildRateLimit`). A client over the
//! limit gets the ConfigMap's `limit-req-status-code` (503, `config.go` `NewDefault`).
//!
//! Envoy Gateway's local rate limit (`api/v1alpha1/ratelimit_types.go`) counts per client with
//! a `Distinct` source CIDR, exempts ranges with inverted ones (conditions of one selector
//! must all hold, at most 8), answers 429, and refills a bucket of `requests` every `unit`:
//! the sustained rate is nginx's, bursts are not (nginx let `1 + burst` requests through at
//! once). Each Envoy route has its own bucket (`internal/xds/translator/local_ratelimit.go`
//! puts the token bucket in the route's per-filter config), where nginx shared one across the
//! Ingress's locations.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::translate::target::backend::{RateLimit, RateUnit};

use super::{Annotations, PREFIX, atoi as integer, field};

pub(crate) const KEYS: &[&str] = &[
    "limit-rps",
    "limit-rpm",
    "limit-burst-multiplier",
    "limit-whitelist",
    "limit-allowlist",
];

/// The ConfigMap keys read here.
pub(crate) const SETTINGS: &[&str] = &["limit-req-status-code"];

/// Conditions one Envoy Gateway rate-limit selector can hold (`MaxItems=8`): one counts
/// clients, the rest exempt ranges.
const MAX_EXEMPT_PER_FAMILY: usize = 7;

/// The Ingress's rate limit for a target that writes it, or the note saying why it cannot be
/// kept. `forwarded` is the ConfigMap key that made nginx count the forwarded client address
/// ([`super::forwarded_client_address`]).
pub(crate) fn apply(
    ann: &Annotations,
    settings: Option<&BTreeMap<String, String>>,
    forwarded: Option<&str>,
    locations: usize,
) -> (Option<RateLimit>, Option<Diagnostic>) {
    let positive = |key: &'static str| {
        ann.get(key)
            .and_then(integer)
            .filter(|n| *n > 0)
            .map(|n| (key, u32::try_from(n).unwrap_or(u32::MAX)))
    };
    let limits: Vec<(&str, u32, RateUnit)> = [
        positive("limit-rps").map(|(k, n)| (k, n, RateUnit::Second)),
        positive("limit-rpm").map(|(k, n)| (k, n, RateUnit::Minute)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let Some((first_key, _, _)) = limits.first().copied() else {
        return (None, None);
    };
    let fail = |why: String| {
        (
            None,
            Some(
                Diagnostic::new(
                    if first_key == "limit-rps" {
                        Code::NginxLimitRps
                    } else {
                        Code::NginxLimitRpm
                    },
                    format!("{PREFIX}{first_key}: not translated: {why}"),
                )
                .at(field(first_key)),
            ),
        )
    };
    if let Some(key) = forwarded {
        return fail(format!(
            "the controller's {key} made nginx count each forwarded client address, while Envoy Gateway would count the address of whatever connects to it (a load balancer's: every client in one bucket) until its client IP detection is configured to match (ClientTrafficPolicy clientIPDetection)"
        ));
    }
    // ratelimit/main.go: `limit-allowlist` (alias `limit-whitelist`), `net.ParseCIDRs`; an
    // entry that does not read makes the parser fail, and ingress-nginx drops the Ingress
    // (`validation`), so only readable lists get here.
    let list = ann
        .get("limit-allowlist")
        .or_else(|| ann.get("limit-whitelist"))
        .unwrap_or_default();
    let mut exempt = Vec::new();
    for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        match super::access::cidr(entry) {
            Some(c) => exempt.push(c),
            None => {
                return fail(format!(
                    "the allow-list entry {entry:?} is not an address or range"
                ));
            }
        }
    }
    exempt.sort();
    exempt.dedup();
    let (v6, v4): (Vec<&String>, Vec<&String>) = exempt.iter().partition(|c| c.contains(':'));
    if v4.len().max(v6.len()) > MAX_EXEMPT_PER_FAMILY {
        return fail(format!(
            "Envoy Gateway can exempt at most {MAX_EXEMPT_PER_FAMILY} ranges per address family from a limit, and the allow-list has {}",
            v4.len().max(v6.len())
        ));
    }
    let multiplier = ann
        .get("limit-burst-multiplier")
        .and_then(integer)
        .unwrap_or(5);
    let status = settings
        .and_then(|s| s.get("limit-req-status-code"))
        .and_then(|v| integer(v))
        .unwrap_or(503);
    let mut differences = Vec::new();
    for (key, n, unit) in &limits {
        let burst = i64::from(*n).saturating_mul(multiplier).max(0);
        differences.push(format!(
            "nginx let a client send {} requests at once before holding it to {n} per {} ({key} × limit-burst-multiplier {multiplier}, nodelay); Envoy lets {n} through per {}",
            burst.saturating_add(1),
            unit.word(),
            unit.word()
        ));
    }
    if status != 429 {
        differences.push(format!(
            "a limited request is answered 429 where nginx answered {status} (limit-req-status-code)"
        ));
    }
    if locations > 1 {
        differences.push(format!(
            "nginx counted the Ingress's {locations} paths together, Envoy counts each route rule apart"
        ));
    }
    let source = limits
        .iter()
        .map(|(_, n, unit)| format!("{n} requests per {} per client", unit.word()))
        .collect::<Vec<_>>()
        .join(" and ");
    (
        Some(RateLimit {
            limits: limits.iter().map(|(_, n, unit)| (*n, *unit)).collect(),
            exempt,
            source: if list.trim().is_empty() {
                source
            } else {
                format!("{source}, clients in {list} exempt")
            },
            differences,
        }),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::super::annotations_of as ann;
    use super::*;

    // ratelimit/main.go Parse; template.go buildRateLimit.
    #[test]
    fn rps_and_rpm_per_client_with_their_bursts() {
        let (r, note) = apply(
            &ann(&[
                ("limit-rps", "10"),
                ("limit-rpm", "300"),
                ("limit-whitelist", "10.0.0.0/8, ::1"),
            ]),
            None,
            None,
            1,
        );
        assert!(note.is_none());
        let r = r.unwrap();
        assert_eq!(r.limits, [(10, RateUnit::Second), (300, RateUnit::Minute)]);
        assert_eq!(r.exempt, ["10.0.0.0/8", "::1/128"]);
        // Two bursts (51 at once for rps, 1501 for rpm) and the 503.
        assert_eq!(r.differences.len(), 3, "{:?}", r.differences);
        assert!(r.differences[0].contains("51 requests at once"));
    }

    #[test]
    fn nothing_to_limit_and_what_cannot_be_kept() {
        assert_eq!(
            apply(&ann(&[("limit-rps", "0")]), None, None, 1),
            (None, None)
        );
        assert_eq!(
            apply(&ann(&[("limit-burst-multiplier", "3")]), None, None, 1),
            (None, None)
        );
        let (r, note) = apply(
            &ann(&[("limit-rps", "5")]),
            None,
            Some("use-forwarded-headers"),
            1,
        );
        assert!(r.is_none());
        assert_eq!(note.unwrap().code, Code::NginxLimitRps);
        let many: Vec<String> = (1..=8).map(|i| format!("10.0.{i}.0/24")).collect();
        let list = many.join(",");
        let (r, note) = apply(
            &ann(&[("limit-rpm", "5"), ("limit-whitelist", &list)]),
            None,
            None,
            1,
        );
        assert!(r.is_none());
        assert_eq!(note.unwrap().code, Code::NginxLimitRpm);
    }

    #[test]
    fn status_429_and_one_path_leave_the_burst_only() {
        let cm: BTreeMap<String, String> =
            [("limit-req-status-code".to_string(), "429".to_string())].into();
        let r = apply(
            &ann(&[("limit-rps", "2"), ("limit-burst-multiplier", "1")]),
            Some(&cm),
            None,
            1,
        )
        .0
        .unwrap();
        assert_eq!(r.differences.len(), 1, "{:?}", r.differences);
        assert!(r.differences[0].contains("3 requests at once"));
    }
}
