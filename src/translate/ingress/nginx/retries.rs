//! ingress-nginx's retries, for a target that carries them (Envoy Gateway's
//! BackendTrafficPolicy `retry`; elsewhere the annotations are reported).
//!
//! nginx retries a request on another endpoint when `proxy_next_upstream` says so
//! (`nginx.tmpl`: `proxy_next_upstream {{ buildNextUpstream ... }}`,
//! `proxy_next_upstream_tries`, `proxy_next_upstream_timeout`), by default `error timeout` with
//! 3 tries (`config.go` `NewDefault`), so a backend pod that refuses a connection is retried
//! on another (`rootfs/etc/nginx/lua/balancer.lua` `balance` asks for one more try each
//! time). The annotations `proxy-next-upstream`, `proxy-next-upstream-tries` and
//! `proxy-next-upstream-timeout` override the ConfigMap's keys of the same names
//! (`annotations/proxy/main.go` `Parse`: a value that does not read falls back to them).
//! nginx never retries a non-idempotent request (POST, LOCK, PATCH) once it was sent, unless
//! `non_idempotent` is listed or the ConfigMap's `retry-non-idempotent` is true
//! (`template.go` `buildNextUpstream`).
//!
//! In Envoy's terms: `error` is a failed or refused connection, or one broken before the
//! request was sent (`connect-failure`, `refused-stream`, `reset-before-request`); `timeout`
//! is a connect timeout (`connect-failure`). What nginx retried after the request was sent
//! (idempotent requests only) Envoy would retry for every method, so it is kept only with
//! `non_idempotent`: `reset`, and the `http_*` statuses as `retriable-status-codes`.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::translate::target::backend::{Retry, RetryOn};

use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &[
    "proxy-next-upstream",
    "proxy-next-upstream-tries",
    "proxy-next-upstream-timeout",
];

/// The ConfigMap keys read here.
pub(crate) const SETTINGS: &[&str] = &[
    "proxy-next-upstream",
    "proxy-next-upstream-tries",
    "proxy-next-upstream-timeout",
    "retry-non-idempotent",
];

/// The location's `proxy_next_upstream` words, tries and timeout, as nginx had them.
struct NextUpstream<'a> {
    words: Vec<&'a str>,
    /// Where the words and the tries come from, for the note.
    from: String,
    tries: i64,
    /// Whether the Ingress's own annotation gave the tries (notes point at it).
    own_tries: bool,
    timeout: i64,
    non_idempotent: bool,
}

fn read<'a>(
    ann: &'a Annotations,
    settings: Option<&'a BTreeMap<String, String>>,
) -> NextUpstream<'a> {
    let setting = |key: &str| settings.and_then(|s| s.get(key)).map(String::as_str);
    let own = ann.get("proxy-next-upstream").filter(|v| {
        !v.is_empty()
            && crate::semantics::ingress_nginx::annotation_value_valid("proxy-next-upstream", v)
    });
    let (value, words_from) = match (own, setting("proxy-next-upstream")) {
        (Some(v), _) => (v, "the annotation"),
        (None, Some(v)) => (v, "the ConfigMap"),
        (None, None) => ("error timeout", "ingress-nginx's default"),
    };
    // proxy/main.go `Parse`: an annotation that is no integer falls back to the ConfigMap's
    // value, which `ReadConfig` decoded (else the default).
    let int = |key: &str, default: i64| -> (i64, &'static str) {
        match ann.int(key) {
            Some(n) => (n, "the annotation"),
            None => match setting(key).and_then(super::configmap_int) {
                Some(n) => (n, "the ConfigMap"),
                None => (default, "ingress-nginx's default"),
            },
        }
    };
    let (tries, tries_from) = int("proxy-next-upstream-tries", 3);
    let (timeout, _) = int("proxy-next-upstream-timeout", 0);
    let from = format!("proxy-next-upstream from {words_from}, tries from {tries_from}");
    // `ReadConfig`'s weakly typed bool: the empty string is false.
    let retry_non_idempotent = match setting("retry-non-idempotent") {
        Some("") | None => false,
        Some(v) => super::parse_bool(v).unwrap_or(false),
    };
    let words: Vec<&str> = value.split_whitespace().collect();
    NextUpstream {
        non_idempotent: retry_non_idempotent || words.contains(&"non_idempotent"),
        words,
        from,
        tries,
        own_tries: tries_from == "the annotation",
        timeout,
    }
}

/// What nginx retried, as the target's retry (`Ok(None)`: nothing), or why it cannot be kept
/// (the annotation that says so, and the reason).
fn retry(n: &NextUpstream) -> Result<Option<Retry>, (&'static str, String)> {
    if n.words.is_empty() || n.words.contains(&"off") {
        return Ok(None);
    }
    match n.tries {
        1 => return Ok(None),
        0 => {
            return Err((
                "proxy-next-upstream-tries",
                "nginx retried with no limit on tries (0), which a retry policy cannot say".into(),
            ));
        }
        // nginx.tmpl writes `proxy_next_upstream_tries -1;`, which nginx's number parser
        // (`ngx_conf_set_num_slot`) refuses: the configuration never loaded.
        t if t < 0 => {
            return Err((
                "proxy-next-upstream-tries",
                format!(
                    "nginx refuses a negative number of tries ({t}), so the controller could not load this configuration"
                ),
            ));
        }
        _ => {}
    }
    let mut on = Vec::new();
    let mut codes = Vec::new();
    let mut differences = Vec::new();
    for w in &n.words {
        match *w {
            "error" => {
                on.extend([
                    RetryOn::ConnectFailure,
                    RetryOn::RefusedStream,
                    RetryOn::ResetBeforeRequest,
                ]);
                if n.non_idempotent {
                    on.push(RetryOn::Reset);
                }
            }
            "timeout" => on.push(RetryOn::ConnectFailure),
            "non_idempotent" => {}
            "invalid_header" => differences.push(
                "a backend answering with an invalid header is not retried (invalid_header)"
                    .to_string(),
            ),
            code => match code.strip_prefix("http_").and_then(|c| c.parse::<u16>().ok()) {
                Some(c) if n.non_idempotent => codes.push(c),
                Some(c) => differences.push(format!(
                    "idempotent requests answered with {c} are not retried (http_{c}: Envoy Gateway would retry every method, POST included, where nginx retried idempotent requests only)"
                )),
                None => {
                    return Err((
                        "proxy-next-upstream",
                        format!("nginx does not know the condition {code:?}"),
                    ));
                }
            },
        }
    }
    // `error` and `timeout` also cover a connection that breaks or times out after the request
    // was sent, before the response header: nginx retried idempotent requests then (all with
    // non_idempotent); Envoy's `reset` would retry every method, and a late header is not
    // retried without a per-try timeout.
    if n.words.contains(&"error") && !n.non_idempotent {
        differences.push("idempotent requests whose backend connection broke after they were sent are not retried (Envoy Gateway's reset condition would retry POST too)".into());
    }
    if n.words.contains(&"timeout") {
        differences.push("a response header later than proxy-read-timeout is not retried".into());
    }
    if !codes.is_empty() {
        on.push(RetryOn::RetriableStatusCodes);
    }
    on.sort();
    on.dedup();
    codes.sort_unstable();
    codes.dedup();
    if on.is_empty() {
        if differences.is_empty() {
            return Ok(None);
        }
        // Only conditions Envoy Gateway cannot keep: nginx retried, the target will not.
        return Err(("proxy-next-upstream", differences.join("; ")));
    }
    if n.timeout > 0 {
        differences.push(format!(
            "nginx stopped retrying after {} s (proxy-next-upstream-timeout), Envoy Gateway does not",
            n.timeout
        ));
    }
    Ok(Some(Retry {
        retries: u32::try_from(n.tries - 1).unwrap_or(u32::MAX),
        on,
        status_codes: codes,
        source: format!(
            "{} on another endpoint up to {} times in all ({})",
            if n.non_idempotent {
                "failed requests"
            } else {
                "failed connections"
            },
            n.tries,
            n.from
        ),
        per_try_timeout: None,
        differences,
    }))
}

/// The plan's retries for a target that writes them, with a note when they cannot be kept.
pub(crate) fn apply(
    ann: &Annotations,
    settings: Option<&BTreeMap<String, String>>,
    grpc: bool,
) -> (Option<Retry>, Option<Diagnostic>) {
    let n = read(ann, settings);
    match retry(&n) {
        Ok(Some(mut r)) => {
            if grpc {
                // nginx.tmpl: gRPC locations use grpc_pass, whose grpc_next_upstream keeps
                // nginx's own default (`error timeout`, no limit on tries).
                r.differences.push("gRPC locations (grpc_pass) were retried by nginx's grpc_next_upstream default (error timeout, no limit on tries), not by proxy_next_upstream".into());
            }
            (Some(r), None)
        }
        Ok(None) => (None, None),
        Err((key, why)) => {
            let d = Diagnostic::new(
                if key == "proxy-next-upstream" {
                    Code::NginxProxyNextUpstream
                } else {
                    Code::NginxProxyNextUpstreamTries
                },
                format!(
                    "{key} ({}): not translated: {why}; no retry is written",
                    n.from
                ),
            );
            // Point at the annotation only when the Ingress has it.
            let own = if key == "proxy-next-upstream" {
                ann.get(key).is_some()
            } else {
                n.own_tries
            };
            (None, Some(if own { d.at(field(key)) } else { d }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::annotations_of as ann;
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn names(r: &Retry) -> Vec<&'static str> {
        r.on.iter().map(|t| t.envoy_name()).collect()
    }

    // config.go NewDefault: `error timeout`, 3 tries; what fails after the request was sent
    // (idempotent requests only) and a late response header are not kept.
    #[test]
    fn the_default_retries_failed_connections_twice() {
        let (r, note) = apply(&ann(&[]), None, false);
        let r = r.unwrap();
        assert!(note.is_none());
        assert_eq!(r.retries, 2);
        assert_eq!(
            names(&r),
            ["reset-before-request", "connect-failure", "refused-stream"]
        );
        assert!(r.status_codes.is_empty());
        assert_eq!(r.differences.len(), 2, "{:?}", r.differences);
    }

    // proxy/main.go: Atoi on the raw annotation (" 7" falls back to the ConfigMap); ReadConfig
    // reads "010" with base 0.
    #[test]
    fn tries_are_read_as_go_reads_them() {
        let cm = settings(&[("proxy-next-upstream-tries", "010")]);
        assert_eq!(apply(&ann(&[]), Some(&cm), false).0.unwrap().retries, 7);
        let spaced = ann(&[("proxy-next-upstream-tries", " 7")]);
        let r = apply(&spaced, Some(&cm), false).0.unwrap();
        assert_eq!(r.retries, 7);
        assert!(
            r.source.contains("tries from the ConfigMap"),
            "{}",
            r.source
        );
    }

    // Conditions none of which Envoy Gateway keeps: nginx retried, the target will not.
    #[test]
    fn conditions_nothing_keeps_are_reported() {
        let (r, note) = apply(&ann(&[("proxy-next-upstream", "http_502")]), None, false);
        assert!(r.is_none());
        let note = note.unwrap();
        assert_eq!(note.code, Code::NginxProxyNextUpstream);
        assert!(note.message.contains("502"), "{}", note.message);
    }

    // The annotation wins over the ConfigMap; an invalid one falls back to it (proxy/main.go).
    #[test]
    fn annotation_then_configmap_then_default() {
        let cm = settings(&[("proxy-next-upstream", "off")]);
        assert_eq!(apply(&ann(&[]), Some(&cm), false).0, None);
        let own = ann(&[
            ("proxy-next-upstream", "error"),
            ("proxy-next-upstream-tries", "5"),
        ]);
        assert_eq!(apply(&own, Some(&cm), false).0.unwrap().retries, 4);
        let invalid = ann(&[("proxy-next-upstream", "sometimes")]);
        assert_eq!(apply(&invalid, Some(&cm), false).0, None);
        let one = ann(&[("proxy-next-upstream-tries", "1")]);
        assert_eq!(apply(&one, None, false).0, None);
    }

    // buildNextUpstream: status codes are retried for idempotent requests only, unless
    // non_idempotent (or retry-non-idempotent) says otherwise.
    #[test]
    fn status_codes_need_non_idempotent() {
        let codes = ann(&[("proxy-next-upstream", "error http_503 http_502")]);
        let r = apply(&codes, None, false).0.unwrap();
        assert!(r.status_codes.is_empty());
        assert_eq!(r.differences.len(), 3, "{:?}", r.differences);
        let cm = settings(&[("retry-non-idempotent", "true")]);
        let r = apply(&codes, Some(&cm), false).0.unwrap();
        assert_eq!(r.status_codes, [502, 503]);
        assert!(names(&r).contains(&"retriable-status-codes"));
        assert!(names(&r).contains(&"reset"));
        assert!(r.differences.is_empty());
    }

    #[test]
    fn unlimited_tries_are_reported() {
        let zero = ann(&[("proxy-next-upstream-tries", "0")]);
        let (r, note) = apply(&zero, None, false);
        assert!(r.is_none());
        assert_eq!(note.unwrap().code, Code::NginxProxyNextUpstreamTries);
        let timeout = ann(&[("proxy-next-upstream-timeout", "10")]);
        assert_eq!(apply(&timeout, None, false).0.unwrap().differences.len(), 3);
    }
}
