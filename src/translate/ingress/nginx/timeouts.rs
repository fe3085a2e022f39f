//! `proxy-read-timeout` / `proxy-send-timeout` → `timeouts.request` (approximate: nginx
//! times out an idle read or write, Gateway API the whole request); `proxy-connect-timeout`
//! has no Gateway API field. For a target that carries them exactly (Envoy Gateway's
//! BackendTrafficPolicy), they are read with the ConfigMap's values and defaults
//! ([`read_settings`]) and written there instead.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::HttpRouteTimeouts;

use super::super::ir::IngressPlan;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &[
    "proxy-read-timeout",
    "proxy-send-timeout",
    "proxy-connect-timeout",
];

/// nginx timeout annotations and ConfigMap keys are integers of seconds
/// (`proxy/main.go` `Parse`: `parser.GetIntAnnotation`, Go's `strconv.Atoi`; `configmap.go`
/// `ReadConfig` decodes ints the same way): `"60s"` is not one, and ingress-nginx then used the
/// controller's value (the annotation) or the default (the ConfigMap key).
fn seconds(value: &str) -> Option<u64> {
    let digits = value.strip_prefix('+').unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Seconds as a Gateway API Duration (`^([0-9]{1,5}(h|m|s|ms)){1,4}$`).
pub(crate) fn duration(secs: u64) -> String {
    if secs < 100_000 {
        return format!("{secs}s");
    }
    let (h, rest) = (secs / 3600, secs % 3600);
    let h = h.min(99_999);
    let (m, s) = (rest / 60, rest % 60);
    let mut out = format!("{h}h");
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if s > 0 {
        out.push_str(&format!("{s}s"));
    }
    out
}

/// A positive number of seconds from the annotation, else from the controller's ConfigMap
/// (`internal/ingress/annotations/proxy/main.go` `Parse`: an annotation that does not read
/// falls back to the ConfigMap's value), else ingress-nginx's default
/// (`internal/ingress/defaults` via `config.go` `NewDefault`).
fn effective(
    ann: &Annotations,
    settings: Option<&std::collections::BTreeMap<String, String>>,
    key: &str,
    default: u64,
) -> u64 {
    // The annotation is Go's `Atoi` of the raw value; the ConfigMap's, `ReadConfig`'s base-0
    // integer. A value of 0 or less was nginx's too (`apply` says so); the translation keeps
    // the next one down.
    let positive = |n: i64| u64::try_from(n).ok().filter(|s| *s > 0);
    ann.int(key)
        .and_then(positive)
        .or_else(|| {
            settings
                .and_then(|s| s.get(key))
                .and_then(|v| super::configmap_int(v))
                .and_then(positive)
        })
        .unwrap_or(default)
}

/// How long nginx let a proxied request sit with no byte either way (the longer of
/// `proxy-read-timeout` and `proxy-send-timeout`, 60 s by default) and how long connecting
/// could take (`proxy-connect-timeout`, 5 s), for targets that carry them exactly.
pub(crate) fn read_settings(
    plan: &mut IngressPlan,
    ann: &Annotations,
    settings: Option<&std::collections::BTreeMap<String, String>>,
) {
    plan.idle_timeout = effective(ann, settings, "proxy-read-timeout", 60).max(effective(
        ann,
        settings,
        "proxy-send-timeout",
        60,
    ));
    plan.connect_timeout = effective(ann, settings, "proxy-connect-timeout", 5);
}

/// `exact`: the target carries the idle and connect timeouts as they are
/// (`translate::target::envoy_gateway::backend_traffic_policy`), so nothing is approximated here.
pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations, exact: bool) {
    if exact {
        for key in [
            "proxy-read-timeout",
            "proxy-send-timeout",
            "proxy-connect-timeout",
        ] {
            let Some(raw) = ann.get(key) else { continue };
            let message = match ann.int(key) {
                // proxy/main.go `Parse`: only a value that does not read falls back.
                None => format!(
                    "{key} {raw:?} is not an integer; ingress-nginx used the ConfigMap's value (or its default), and so does the translation"
                ),
                Some(n) if n < 0 => format!(
                    "{key} {n}: ingress-nginx wrote a negative time into nginx's configuration, which nginx refuses, so the controller could not load it; the translation uses the ConfigMap's value (or the default)"
                ),
                Some(0) => format!(
                    "{key} 0: ingress-nginx gave nginx a time of 0 s (nginx.tmpl), which the translation does not reproduce; it uses the ConfigMap's value (or the default)"
                ),
                Some(_) => continue,
            };
            plan.result
                .notes
                .push(Diagnostic::new(Code::NginxTimeout, message).at(field(key)));
        }
        return;
    }
    let mut longest: Option<(u64, &str)> = None;
    for key in ["proxy-read-timeout", "proxy-send-timeout"] {
        let Some(raw) = ann.get(key) else { continue };
        match seconds(raw) {
            Some(s) if s > 0 => {
                if longest.is_none_or(|(l, _)| s > l) {
                    longest = Some((s, key));
                }
            }
            _ => plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxTimeout,
                    format!("{key} {raw:?} is not a positive number of seconds (an integer, as ingress-nginx reads it); not translated"),
                )
                .at(field(key)),
            ),
        }
    }
    if let Some((secs, key)) = longest
        && plan.kind == super::super::ir::RouteKind::Grpc
    {
        // A GRPCRoute has no `timeouts` (Gateway API v1.6 `GRPCRouteRule`).
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxTimeoutApproximate,
                format!("{key} {secs}s: a GRPCRoute has no timeouts field (GRPCRouteRule), so the route gets the implementation's default; not translated"),
            )
            .at(field(key)),
        );
    } else if let Some((secs, key)) = longest {
        let d = duration(secs);
        for rule in plan.hosts.iter_mut().flat_map(|h| h.rules.iter_mut()) {
            rule.timeouts = Some(HttpRouteTimeouts {
                request: Some(d.clone()),
                backend_request: None,
            });
        }
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxTimeoutApproximate,
                format!(
                    "{key} {secs}s → timeouts.request {d}: nginx limits the time between two reads/writes, Gateway API the whole request, so long transfers that nginx allowed may now time out"
                ),
            )
            .at(field(key)),
        );
    }
    if ann.get("proxy-connect-timeout").is_some() {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxProxyConnectTimeout,
                "proxy-connect-timeout has no Gateway API field (use the implementation's backend policy, e.g. Envoy Gateway BackendTrafficPolicy or an Istio DestinationRule connectTimeout); not translated",
            )
            .at(field("proxy-connect-timeout")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_fit_the_gateway_api_pattern() {
        assert_eq!(duration(60), "60s");
        assert_eq!(duration(99_999), "99999s");
        assert_eq!(duration(100_000), "27h46m40s");
    }
}

#[cfg(test)]
mod seconds_tests {
    use super::seconds;

    // Go's strconv.Atoi, as parser.GetIntAnnotation reads the value.
    #[test]
    fn seconds_are_integers() {
        assert_eq!(seconds("60"), Some(60));
        assert_eq!(seconds("+60"), Some(60));
        assert_eq!(seconds("60s"), None);
        assert_eq!(seconds(" 60"), None);
        assert_eq!(seconds("-5"), None);
        assert_eq!(seconds(""), None);
    }
}
