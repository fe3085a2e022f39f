//! Istio `headers.request` / `headers.response` → Request/ResponseHeaderModifier filters.

use super::matches::valid_header_name;
use crate::diagnostic::locate::key_step;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpHeader, HttpHeaderFilter, HttpRouteFilter};
use crate::model::istio::{HeaderOperations, Headers};
use crate::translate::istio::unknown;

/// Gateway API allows 16 entries per set/add/remove list.
const MAX_ENTRIES: usize = 16;

/// Where header operations sit: a route's rewrite the host with `Host`/`:authority`
/// (written as the URLRewrite hostname by the caller), a destination's stay header entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Route,
    Destination,
}

/// Whether a header name is the host (`Host`, `:authority`).
fn is_authority(name: &str) -> bool {
    name.eq_ignore_ascii_case("host") || name == ":authority"
}

/// The host a route's request header operations rewrite to, and the field that says so:
/// Istio's `TranslateHeadersOperations` takes `Host`/`:authority` from `set`, else from
/// `add`.
pub(super) fn authority(headers: &Headers, path: &str) -> Option<(String, String)> {
    let ops = headers.request.as_ref()?;
    for (op, list) in [("set", &ops.set), ("add", &ops.add)] {
        if let Some((name, value)) = list.iter().find(|(n, v)| is_authority(n) && !v.is_empty()) {
            return Some((
                value.clone(),
                format!("{path}.request.{op}{}", key_step(name)),
            ));
        }
    }
    None
}

/// The header-modifier filters for `headers` (route level or per destination).
pub(super) fn filters(
    headers: &Headers,
    path: &str,
    level: Level,
    notes: &mut Vec<Diagnostic>,
) -> Vec<HttpRouteFilter> {
    unknown::report(&headers.extra, path, notes);
    let mut out = Vec::new();
    if let Some(req) = &headers.request
        && let Some(f) = modifier(req, &format!("{path}.request"), level, notes)
    {
        out.push(HttpRouteFilter::request_header_modifier(f));
    }
    if let Some(resp) = &headers.response
        && let Some(f) = modifier(resp, &format!("{path}.response"), Level::Destination, notes)
    {
        out.push(HttpRouteFilter::response_header_modifier(f));
    }
    out
}

fn modifier(
    ops: &HeaderOperations,
    path: &str,
    level: Level,
    notes: &mut Vec<Diagnostic>,
) -> Option<HttpHeaderFilter> {
    unknown::report(&ops.extra, path, notes);
    let mut f = HttpHeaderFilter::default();
    let mut seen: std::collections::BTreeMap<String, &str> = std::collections::BTreeMap::new();
    for (list, target, op) in [(&ops.set, &mut f.set, "set"), (&ops.add, &mut f.add, "add")] {
        for (name, value) in list {
            let field = format!("{path}.{op}{}", key_step(name));
            if level == Level::Route && is_authority(name) {
                // The caller writes it as the URLRewrite hostname (`authority`).
                continue;
            }
            if !valid_header_name(name) {
                notes.push(
                    Diagnostic::new(
                        Code::IstioInvalidHeaderName,
                        format!("'{name}' is not a valid Gateway API header name; dropped"),
                    )
                    .at(field),
                );
                continue;
            }
            if value.is_empty() {
                notes.push(Diagnostic::new(Code::IstioEmptyHeaderValue, format!("header '{name}' has an empty value, which Gateway API does not accept; dropped")).at(field));
                continue;
            }
            if let Some(first) = seen.get(&name.to_ascii_lowercase()) {
                let message = if *first == op {
                    format!(
                        "header '{name}' appears twice in '{op}' (header names ignore case); Gateway API allows one action per header, the first is kept"
                    )
                } else {
                    format!(
                        "header '{name}' is both set and added; Gateway API allows one action per header, the 'set' is kept"
                    )
                };
                notes.push(Diagnostic::new(Code::IstioHeaderConflict, message).at(field));
                continue;
            }
            seen.insert(name.to_ascii_lowercase(), op);
            if value.contains('%') {
                notes.push(Diagnostic::new(Code::IstioHeaderFormatter, format!("value of header '{name}' looks like an Envoy %VARIABLE% formatter, which Gateway API does not define; copied literally")).at(field.clone()));
            }
            if name.eq_ignore_ascii_case("host") || name == ":authority" {
                notes.push(Diagnostic::new(Code::IstioHostHeader, "setting the Host header through a header modifier is not portable; use rewrite.authority (URLRewrite hostname)").at(field.clone()));
            }
            target.push(HttpHeader {
                name: name.clone(),
                value: value.clone(),
            });
        }
    }
    for name in &ops.remove {
        if !valid_header_name(name) {
            notes.push(
                Diagnostic::new(
                    Code::IstioInvalidHeaderName,
                    format!("'{name}' is not a valid Gateway API header name; dropped"),
                )
                .at(format!("{path}.remove")),
            );
            continue;
        }
        if seen.insert(name.to_ascii_lowercase(), "remove").is_some() {
            notes.push(Diagnostic::new(Code::IstioHeaderConflict, format!("header '{name}' is both modified and removed (or removed twice); Gateway API allows one action per header, the removal is dropped")).at(format!("{path}.remove")));
            continue;
        }
        f.remove.push(name.clone());
    }
    for (label, len) in [
        ("set", f.set.len()),
        ("add", f.add.len()),
        ("remove", f.remove.len()),
    ] {
        if len > MAX_ENTRIES {
            notes.push(Diagnostic::new(Code::IstioTooManyHeaders, format!("more than {MAX_ENTRIES} headers in '{label}'; Gateway API allows {MAX_ENTRIES}, the rest were dropped")).at(format!("{path}.{label}")));
        }
    }
    f.set.truncate(MAX_ENTRIES);
    f.add.truncate(MAX_ENTRIES);
    f.remove.truncate(MAX_ENTRIES);
    (!f.is_empty()).then_some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conflict_messages(ops: serde_json::Value) -> Vec<String> {
        let ops: HeaderOperations = serde_json::from_value(ops).unwrap();
        let mut notes = Vec::new();
        modifier(
            &ops,
            "spec.http[0].headers.request",
            Level::Route,
            &mut notes,
        );
        notes
            .into_iter()
            .filter(|n| n.code == Code::IstioHeaderConflict)
            .map(|n| n.message)
            .collect()
    }

    #[test]
    fn a_header_set_twice_is_not_called_set_and_added() {
        // Two `set` keys differing in case name one header.
        let twice = conflict_messages(serde_json::json!({"set": {"X-A": "1", "x-a": "2"}}));
        assert_eq!(twice.len(), 1);
        assert!(twice[0].contains("appears twice in 'set'"), "{twice:?}");
        let both = conflict_messages(serde_json::json!({"set": {"x-a": "1"}, "add": {"X-A": "2"}}));
        assert_eq!(both.len(), 1);
        assert!(both[0].contains("both set and added"), "{both:?}");
    }
}
