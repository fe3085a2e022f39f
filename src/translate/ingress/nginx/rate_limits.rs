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
//! Envoy Gateway's local rate limit (`api/v1alpha1/ratelimit_types.go`) counts each client
//! apart with a `Distinct` source CIDR, answers 429, and refills a bucket of `requests` every
//! `unit`: the sustained rate is nginx's, bursts are not (nginx let `1 + burst` requests through
//! at once). A rule holds one source CIDR only (`internal/gatewayapi/backendtrafficpolicy.go`
//! `buildRateLimitRule` keeps the last `sourceCIDR` of its selectors), so the allow-list is
//! kept by counting, with one rule each, the ranges that cover every address outside it (at
//! most 16 rules per policy). Each Envoy route has its own bucket
//! (`internal/xds/translator/local_ratelimit.go` puts the token bucket in the route's
//! per-filter config), where nginx shared one across the Ingress's locations.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::translate::target::backend::{RateLimit, RateUnit};

use super::{Annotations, PREFIX, field};

pub(crate) const KEYS: &[&str] = &[
    "limit-rps",
    "limit-rpm",
    "limit-burst-multiplier",
    "limit-whitelist",
    "limit-allowlist",
];

/// The ConfigMap keys read here.
pub(crate) const SETTINGS: &[&str] = &["limit-req-status-code", "limit-conn-zone-variable"];

/// Rules one Envoy Gateway local rate limit can hold (`LocalRateLimit.Rules` `MaxItems=16`).
const MAX_RULES: usize = 16;

/// The ranges that cover every address of a family (`bits` 32 or 128) outside `exempt`
/// (`(network, prefix length)`), as few as the split allows: a range is kept whole when no
/// exempt range overlaps it, dropped when one covers it, else halved.
fn outside(bits: u8, exempt: &[(u128, u8)]) -> Vec<(u128, u8)> {
    fn walk(net: u128, len: u8, bits: u8, exempt: &[(u128, u8)], out: &mut Vec<(u128, u8)>) {
        let mask = |l: u8| {
            if l == 0 {
                0
            } else {
                (u128::MAX << (bits - l)) & (u128::MAX >> (128 - bits))
            }
        };
        let covered = exempt
            .iter()
            .any(|(e, el)| *el <= len && net & mask(*el) == *e);
        if covered {
            return;
        }
        let overlaps = exempt
            .iter()
            .any(|(e, el)| *el > len && e & mask(len) == net);
        if !overlaps {
            out.push((net, len));
            return;
        }
        let half = 1u128 << (bits - len - 1);
        walk(net, len + 1, bits, exempt, out);
        walk(net | half, len + 1, bits, exempt, out);
    }
    let mut out = Vec::new();
    walk(0, 0, bits, exempt, &mut out);
    out
}

/// The ranges to count clients in, as `address/bits`: everything outside the allow-list, per
/// family.
fn counted(exempt: &[String]) -> Vec<String> {
    let parsed: Vec<(std::net::IpAddr, u8)> = exempt
        .iter()
        .filter_map(|c| {
            let (a, b) = c.split_once('/')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect();
    let mut out = Vec::new();
    for v6 in [false, true] {
        let bits = if v6 { 128 } else { 32 };
        let family: Vec<(u128, u8)> = parsed
            .iter()
            .filter(|(a, _)| a.is_ipv6() == v6)
            .map(|(a, l)| {
                let n = match a {
                    std::net::IpAddr::V4(v4) => u128::from(u32::from(*v4)),
                    std::net::IpAddr::V6(v6) => u128::from(*v6),
                };
                (n, *l)
            })
            .collect();
        for (net, len) in outside(bits, &family) {
            out.push(if v6 {
                format!("{}/{len}", std::net::Ipv6Addr::from(net))
            } else {
                format!(
                    "{}/{len}",
                    std::net::Ipv4Addr::from(u32::try_from(net).unwrap_or_default())
                )
            });
        }
    }
    out
}

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
        ann.int(key)
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
    let counted = counted(&exempt);
    if counted.is_empty() {
        // nginx.tmpl's geo/map: every client in the allow-list gets an empty key, which
        // limit_req does not count.
        return (None, None);
    }
    if counted.len() * limits.len() > MAX_RULES {
        let names: Vec<&str> = limits.iter().map(|(k, _, _)| *k).collect();
        return fail(format!(
            "keeping the allow-list takes {} ranges outside it for each of {}, {} rules in all, and an Envoy Gateway local rate limit holds at most {MAX_RULES}; none of the limits is written",
            counted.len(),
            names.join(" and "),
            counted.len() * limits.len()
        ));
    }
    // nginx.tmpl: every zone is keyed by `limit-conn-zone-variable` (`$binary_remote_addr`).
    let key = settings
        .and_then(|s| s.get("limit-conn-zone-variable"))
        .map(String::as_str)
        .filter(|v| !v.is_empty())
        .unwrap_or("$binary_remote_addr");
    if !matches!(key, "$binary_remote_addr" | "$remote_addr") {
        return fail(format!(
            "the controller counted requests per {key} (its ConfigMap's limit-conn-zone-variable), not per client address"
        ));
    }
    // ratelimit/main.go: an annotation that is no integer gives the default 5; nginx refuses
    // `burst=0` or less (`ngx_http_limit_req` "invalid burst value"), so such a location never
    // loaded.
    let multiplier = ann.int("limit-burst-multiplier").unwrap_or(5);
    if multiplier < 1 {
        return fail(format!(
            "limit-burst-multiplier {multiplier} gives nginx a burst of 0 or less, which nginx refuses: the controller could not load this configuration"
        ));
    }
    let status = settings
        .and_then(|s| s.get("limit-req-status-code"))
        .and_then(|v| super::configmap_int(v))
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
            counted,
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

    // ratelimit/main.go Parse; template.go buildRateLimit; the allow-list as the ranges
    // outside it.
    #[test]
    fn per_client_limits_with_their_bursts_and_the_allow_list() {
        let (r, note) = apply(
            &ann(&[("limit-rps", "10"), ("limit-whitelist", "10.0.0.0/8")]),
            None,
            None,
            1,
        );
        assert!(note.is_none());
        let r = r.unwrap();
        assert_eq!(r.limits, [(10, RateUnit::Second)]);
        assert_eq!(
            r.counted,
            [
                "0.0.0.0/5",
                "8.0.0.0/7",
                "11.0.0.0/8",
                "12.0.0.0/6",
                "16.0.0.0/4",
                "32.0.0.0/3",
                "64.0.0.0/2",
                "128.0.0.0/1",
                "::/0"
            ]
        );
        // The burst (51 at once) and the 503.
        assert_eq!(r.differences.len(), 2, "{:?}", r.differences);
        assert!(r.differences[0].contains("51 requests at once"));
        let both = apply(
            &ann(&[("limit-rps", "10"), ("limit-rpm", "300")]),
            None,
            None,
            1,
        )
        .0
        .unwrap();
        assert_eq!(both.counted, ["0.0.0.0/0", "::/0"]);
        assert_eq!(both.limits.len(), 2);
    }

    // Every address outside the exempt ranges is counted, none inside.
    #[test]
    fn the_ranges_outside_cover_exactly_the_rest() {
        let exempt = [(0x0a00_0000u128, 8u8), (0xc0a8_0101, 32)];
        let ranges = outside(32, &exempt);
        let inside = |ip: u128| {
            ranges
                .iter()
                .any(|(n, l)| ip >> (32 - l) == n >> (32 - l) || *l == 0)
        };
        for ip in [
            0u128,
            0x0900_0000,
            0x0b00_0000,
            0xc0a8_0100,
            0xc0a8_0102,
            0xffff_ffff,
        ] {
            assert!(inside(ip), "{ip:x}");
        }
        for ip in [0x0a00_0000u128, 0x0aff_ffff, 0xc0a8_0101] {
            assert!(!inside(ip), "{ip:x}");
        }
        assert_eq!(outside(32, &[]), [(0, 0)]);
        assert!(outside(32, &[(0, 0)]).is_empty());
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
        // One IPv6 address takes 128 ranges outside it.
        let many: Vec<String> = vec!["2001:db8::1".to_string()];
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
